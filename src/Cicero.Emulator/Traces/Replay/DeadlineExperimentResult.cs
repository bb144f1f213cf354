// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>The deadline experiment's results: the isolated completion times' summary and one row per load level and configuration.</summary>
public sealed class DeadlineExperimentResult
{
    internal DeadlineExperimentResult(double k, double isolatedMeanMs, double isolatedMaxMs, bool closedLoop, IReadOnlyList<DeadlineExperimentRow> rows)
    {
        K = k;
        IsolatedMeanMs = isolatedMeanMs;
        IsolatedMaxMs = isolatedMaxMs;
        ClosedLoop = closedLoop;
        Rows = rows;
    }

    /// <summary>Gets the deadline factor used.</summary>
    public double K { get; }

    /// <summary>Gets the mean completion time of a request alone on the idle topology, ms.</summary>
    public double IsolatedMeanMs { get; }

    /// <summary>Gets the largest completion time of a request alone on the idle topology, ms.</summary>
    public double IsolatedMaxMs { get; }

    /// <summary>Gets a value indicating whether load levels are closed-loop client counts (else open-loop speed-ups).</summary>
    public bool ClosedLoop { get; }

    /// <summary>
    /// Gets, over the requests that completed alone, the ratio of the service time they accrued (st of the progress
    /// metrics: LSTF's remaining-time base) to their completion time alone; null if none completed.
    /// </summary>
    public Cicero.Emulator.Measurement.DistributionSummary? EstimateOverIsolated { get; init; }

    /// <summary>Gets the rows, by load level then configuration, in the options' order.</summary>
    public IReadOnlyList<DeadlineExperimentRow> Rows { get; }

    /// <summary>Gets the row of one configuration at one load level.</summary>
    /// <param name="loadLevel">The load level.</param>
    /// <param name="configuration">The configuration's name.</param>
    /// <returns>The row.</returns>
    /// <exception cref="KeyNotFoundException">There is no such row.</exception>
    public DeadlineExperimentRow this[double loadLevel, string configuration] =>
        Rows.FirstOrDefault(r => r.LoadLevel == loadLevel && r.Configuration == configuration)
        ?? throw new KeyNotFoundException($"No row for load level {loadLevel} and configuration '{configuration}'.");

    /// <summary>Formats the table in the layout of the dissertation's Table 5.4, with the drop and late fractions added.</summary>
    /// <returns>A Markdown table.</returns>
    public string ToTable()
    {
        var text = new StringBuilder();
        var level = ClosedLoop ? "# Clients" : "Speed-up";
        text.Append(CultureInfo.InvariantCulture, $"| {level} | Algorithm | LND (Mean) | LND (p95) | LND (p99) | Dropped | Late | Goodput |\n");
        text.Append("|---|---|---|---|---|---|---|---|\n");
        double? previous = null;
        foreach (var row in Rows)
        {
            var first = previous != row.LoadLevel;
            previous = row.LoadLevel;
            text.Append(CultureInfo.InvariantCulture,
                $"| {(first ? row.LoadLevel.ToString("0.##", CultureInfo.InvariantCulture) : string.Empty)} | {row.Configuration} | {row.LndMean:0.00} | {row.LndP95:0.00} | {row.LndP99:0.00} | {row.DropFraction:P1} | {row.LateFraction:P1} | {row.Goodput:P1} |\n");
        }

        return text.ToString();
    }
}
