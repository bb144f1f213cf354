// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.StorageTopology;

/// <summary>
/// The whole machine's CPU time, busy and total, from Linux's <c>/proc/stat</c>: a live run on a host that other
/// processes saturate is as distorted as one that saturates the host itself, and the process's own CPU shows only the latter.
/// </summary>
internal readonly record struct HostCpu(double Busy, double Total)
{
    private const string Stat = "/proc/stat";

    /// <summary>Reads the counters now; <see langword="null"/> where there is no <c>/proc/stat</c> (not Linux).</summary>
    public static HostCpu? Read()
    {
        try
        {
            // "cpu  user nice system idle iowait irq softirq steal guest guest_nice", in clock ticks since boot.
            var line = File.Exists(Stat) ? File.ReadLines(Stat).FirstOrDefault(static l => l.StartsWith("cpu ", StringComparison.Ordinal)) : null;
            var fields = line?.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8).Select(static f => double.Parse(f, CultureInfo.InvariantCulture)).ToArray();
            if (fields is not { Length: >= 5 })
            {
                return null;
            }

            var total = fields.Sum();
            return new HostCpu(total - fields[3] - fields[4], total);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or OverflowException)
        {
            return null;
        }
    }

    /// <summary>The share of all cores busy between <paramref name="start"/> and this reading.</summary>
    public double BusySince(HostCpu start) => Total > start.Total ? (Busy - start.Busy) / (Total - start.Total) : 0;
}
