// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Xunit.Abstractions;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Counts a fuzz run's outcomes by kind and measures it (inputs, wall time, allocation, managed heap, peak working set),
/// for the test output that docs/reliability.md quotes.
/// </summary>
internal sealed partial class FuzzReport
{
    private readonly SortedDictionary<string, long> _outcomes = new(StringComparer.Ordinal);
    private readonly long _startTimestamp = TimeProvider.System.GetTimestamp();
    private readonly long _startAllocated = GC.GetTotalAllocatedBytes();
    private long _maxHeap;

    public long Inputs { get; private set; }

    public long MaxCaseAllocation { get; private set; }

    public IReadOnlyDictionary<string, long> Outcomes => _outcomes;

    /// <summary>Counts an outcome; digits and quoted values in the message are folded so that kinds, not inputs, are counted.</summary>
    public void Count(string outcome, long allocated = 0)
    {
        Inputs++;
        MaxCaseAllocation = Math.Max(MaxCaseAllocation, allocated);
        var kind = Fold(outcome);
        _outcomes[kind] = _outcomes.GetValueOrDefault(kind) + 1;
        if (Inputs % 10_000 == 0)
        {
            _maxHeap = Math.Max(_maxHeap, GC.GetTotalMemory(forceFullCollection: false));
        }
    }

    public void WriteTo(ITestOutputHelper output, string title)
    {
        var elapsed = TimeProvider.System.GetElapsedTime(_startTimestamp);
        _maxHeap = Math.Max(_maxHeap, GC.GetTotalMemory(forceFullCollection: false));
        using var process = Process.GetCurrentProcess();
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"{title}: {Inputs:N0} inputs in {elapsed.TotalSeconds:F1} s ({Inputs / Math.Max(elapsed.TotalSeconds, 1e-9):N0}/s)");
        var perInput = MaxCaseAllocation > 0 ? $", at most {MaxCaseAllocation:N0} bytes in one input" : string.Empty;
        text.AppendLine(CultureInfo.InvariantCulture, $"  allocated {(GC.GetTotalAllocatedBytes() - _startAllocated) / 1048576.0:N0} MiB in all (generator included){perInput}");
        text.AppendLine(CultureInfo.InvariantCulture, $"  managed heap at most {_maxHeap / 1048576.0:N1} MiB (sampled every 10,000 inputs); process peak working set {process.PeakWorkingSet64 / 1048576.0:N0} MiB");
        foreach (var (kind, count) in _outcomes)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"  {count,10:N0}  {kind}");
        }

        output.WriteLine(text.ToString());
    }

    private static string Fold(string outcome)
    {
        var folded = Quoted().Replace(outcome, "'…'");
        folded = Hex().Replace(folded, "0x…");
        folded = Digits().Replace(folded, "N");
        return folded.Length > 110 ? folded[..110] + "…" : folded;
    }

    [GeneratedRegex("'[^']*'")]
    private static partial Regex Quoted();

    [GeneratedRegex("0x[0-9A-Fa-f]+")]
    private static partial Regex Hex();

    [GeneratedRegex("[0-9]+(\\.[0-9]+)?")]
    private static partial Regex Digits();
}
