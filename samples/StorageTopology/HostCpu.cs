// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.StorageTopology;

/// <summary>
/// The whole machine's CPU time, busy and total, from Linux's <c>/proc/stat</c>: a live run on a host that other
/// processes saturate is as distorted as one that saturates the host itself, and the process's own CPU shows only the latter.
/// Time spent in processes at a lower priority (<c>nice</c>) than this one is not counted as busy: the scheduler gives it
/// to this process whenever it needs it, so a niced batch job beside a live run does not distort it.
/// </summary>
internal readonly record struct HostCpu(double Busy, double Total)
{
    private const string Stat = "/proc/stat";

    /// <summary>Reads the counters now; <see langword="null"/> where there is no <c>/proc/stat</c> (not Linux).</summary>
    public static HostCpu? Read()
    {
        try
        {
            var line = File.Exists(Stat) ? File.ReadLines(Stat).FirstOrDefault(static l => l.StartsWith("cpu ", StringComparison.Ordinal)) : null;
            return line is null ? null : Parse(line, countNiced: OwnNiceness() > 0);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            return null;
        }
    }

    /// <summary>Reads <c>/proc/stat</c>'s "cpu" line; niced time counts as busy only when this process is itself niced.</summary>
    /// <exception cref="FormatException">A counter is not a number.</exception>
    public static HostCpu? Parse(string line, bool countNiced)
    {
        // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in clock ticks since boot.
        var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8).Select(static f => double.Parse(f, CultureInfo.InvariantCulture)).ToArray();
        if (fields.Length < 5)
        {
            return null;
        }

        var total = fields.Sum();
        return new HostCpu(total - fields[3] - fields[4] - (countNiced ? 0 : fields[1]), total);
    }

    // /proc/self/stat: "pid (comm) state ..." with the niceness the 19th field, the 17th after the command's closing parenthesis.
    private static int OwnNiceness()
    {
        var stat = File.ReadAllText("/proc/self/stat");
        var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return fields.Length > 16 && int.TryParse(fields[16], NumberStyles.Integer, CultureInfo.InvariantCulture, out var nice) ? nice : 0;
    }

    /// <summary>The share of all cores busy between <paramref name="start"/> and this reading.</summary>
    public double BusySince(HostCpu start) => Total > start.Total ? (Busy - start.Busy) / (Total - start.Total) : 0;
}
