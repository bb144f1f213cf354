// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>
/// Checks the guarantee on a range of seeds, several at once. Each seed's check depends on its seed alone, so the reports
/// are the same for any degree of parallelism; they are handed over in seed order.
/// </summary>
public static class GuaranteeSweep
{
    /// <summary>Checks seeds <paramref name="from"/> to <paramref name="from"/> + <paramref name="count"/> − 1.</summary>
    /// <param name="from">The first seed.</param>
    /// <param name="count">How many seeds.</param>
    /// <param name="kind">The load kind, or <see langword="null"/> to let each seed choose.</param>
    /// <param name="parallel">How many seeds to check at once; at least 1.</param>
    /// <param name="prepare">Changes each generated scenario before it is checked (tuning its configurations), or <see langword="null"/>.</param>
    /// <param name="checkedInOrder">Called with each report and the wall time its check took, in seed order, or <see langword="null"/>.</param>
    /// <param name="runSeeds">Run seeds per configuration.</param>
    /// <returns>The reports in seed order, with their wall times.</returns>
    public static IReadOnlyList<(GuaranteeReport Report, TimeSpan Wall)> Run(
        int from,
        int count,
        string? kind,
        int parallel,
        Action<GeneratedScenario>? prepare = null,
        Action<GuaranteeReport, TimeSpan>? checkedInOrder = null,
        int runSeeds = RateControlGuarantee.DefaultRunSeeds)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(parallel, 1);
        var results = new (GuaranteeReport Report, TimeSpan Wall)?[count];
        var gate = new object();
        var next = 0;
        Parallel.For(0, count, new ParallelOptions { MaxDegreeOfParallelism = parallel }, i =>
        {
            var started = TimeProvider.System.GetTimestamp();
            var generated = ScenarioGenerator.Generate(from + i, kind);
            prepare?.Invoke(generated);
            var report = RateControlGuarantee.Check(generated, runSeeds);
            lock (gate)
            {
                results[i] = (report, TimeProvider.System.GetElapsedTime(started));
                for (; next < count && results[next] is { } done; next++)
                {
                    checkedInOrder?.Invoke(done.Report, done.Wall);
                }
            }
        });
        return results.Select(r => r!.Value).ToArray();
    }
}
