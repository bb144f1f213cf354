// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Simulation.ReplicaSelection;

namespace Cicero.C3Simulation;

/// <summary>Prints one markdown row per (T, selector): the mean over seeds of p50, p99, p99.9 and mean latency.</summary>
internal sealed class C3SimulationTable
{
    private readonly TextWriter _output;
    private bool _headerWritten;

    public C3SimulationTable(TextWriter output) => _output = output;

    public bool AllConserved { get; private set; } = true;

    public void Add(double intervalMs, string selector, IReadOnlyList<ReplicaSimulationResult> runs)
    {
        if (!_headerWritten)
        {
            _output.WriteLine("| T | selector | p50 | p99 | p99.9 | mean | measured | failed | backlogged | rate-limited | low-rate p99 |");
            _output.WriteLine("|---|---|---|---|---|---|---|---|---|---|---|");
            _headerWritten = true;
        }

        double p50 = 0, p99 = 0, p999 = 0, mean = 0, measured = 0, failed = 0, backlogged = 0, limited = 0, lowRate = 0;
        foreach (var run in runs)
        {
            AllConserved &= run.Conserved;
            p50 += run.P50 / runs.Count;
            p99 += run.P99 / runs.Count;
            p999 += run.P999 / runs.Count;
            mean += run.Mean / runs.Count;
            measured += (double)run.Measured / runs.Count;
            failed += (double)run.Failed / runs.Count;
            backlogged += (double)run.Backlogged / runs.Count;
            limited += (double)run.RateLimited / runs.Count;
            lowRate += run.LowRateP99 / runs.Count;
        }

        _output.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"| {intervalMs} ms | {selector} | {p50:F1} | {p99:F0} | {p999:F0} | {mean:F1} | {measured:F0} | {failed:F0} | {backlogged:F0} | {limited:F0} | {(double.IsNaN(lowRate) ? "-" : lowRate.ToString("F1", CultureInfo.InvariantCulture))} |"));
        _output.Flush();
    }
}
