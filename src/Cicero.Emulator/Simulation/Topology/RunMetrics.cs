// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Measurement;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Counts every request's outcome twice: over the whole run (for the conservation check) and over the measured window
/// (for the results), plus per-second bins and the latencies of measured completions. Both runners count here (the
/// live runner through <c>LiveMetrics</c>'s collector), and <see cref="RunResults"/> turns the counts into results.
/// </summary>
/// <remarks>Not thread-safe: one thread counts (the simulation's loop, or the live collector).</remarks>
internal sealed class RunMetrics
{
    private readonly WorkflowCounters[] _workflows;

    public RunMetrics(WorkflowDef[] workflows, bool histograms = false)
    {
        _workflows = new WorkflowCounters[workflows.Length];
        for (var w = 0; w < workflows.Length; w++)
        {
            _workflows[w] = new WorkflowCounters(workflows[w], histograms);
        }
    }

    public IReadOnlyList<WorkflowCounters> Workflows => _workflows;

    public void Offered(SimRequest request, int second) => Offered(request.Workflow.Index, second, request.Measured);

    /// <summary>Counts an offered request of a workflow in a second of the run.</summary>
    public void Offered(int workflow, int second, bool measured)
    {
        var counters = _workflows[workflow];
        counters.AllOffered++;
        counters.Bin(second).Offered++;
        if (measured)
        {
            counters.Offered++;
        }
    }

    public void Admitted(SimRequest request) => Admitted(request.Workflow.Index, request.Measured);

    /// <summary>Counts an admission at the entry point (only measured requests are counted).</summary>
    public void Admitted(int workflow, bool measured)
    {
        if (measured)
        {
            _workflows[workflow].Admitted++;
        }
    }

    public void Outcome(SimRequest request, Outcome outcome, long now, int second) =>
        Outcome(request.Workflow.Index, outcome, (now - request.ArrivedAt) / (double)TimeSpan.TicksPerMillisecond, request.Context?.Deadline, second, request.Measured);

    /// <summary>Counts a request's one outcome, and a measured completion's latency (and LND when it had a deadline).</summary>
    public void Outcome(int workflow, Outcome outcome, double latencyMs, TimeSpan? deadline, int second, bool measured)
    {
        var counters = _workflows[workflow];
        var bin = counters.Bin(second);
        switch (outcome.Kind)
        {
            case OutcomeKind.Completed:
                counters.AllCompleted++;
                bin.Completed++;
                bin.LatencySumMs += latencyMs;
                break;
            case OutcomeKind.Dropped:
                counters.AllDropped++;
                bin.Dropped++;
                break;
            default:
                counters.AllFailed++;
                bin.Failed++;
                break;
        }

        if (!measured)
        {
            return;
        }

        switch (outcome.Kind)
        {
            case OutcomeKind.Completed:
                counters.Completed++;
                counters.RecordLatency(latencyMs, deadline);
                break;
            case OutcomeKind.Dropped:
                counters.Dropped++;
                Count(counters.DroppedByReason, outcome.Reason);
                break;
            default:
                counters.Failed++;
                Count(counters.FailedByReason, outcome.Reason);
                break;
        }
    }

    private static void Count(SortedDictionary<string, long> counts, string reason) =>
        counts[reason] = counts.TryGetValue(reason, out var count) ? count + 1 : 1;
}

/// <summary>One workflow's counters; latencies as raw samples (the simulator's exact summaries) or in histograms (live runs, whose memory must not grow with their length).</summary>
internal sealed class WorkflowCounters(WorkflowDef workflow, bool histograms = false)
{
    public WorkflowDef Workflow { get; } = workflow;

    /// <summary>Gets the measured completions' latencies in ms, when <c>histograms</c> was asked for.</summary>
    public Measurement.LatencyRecorder? LatencyHistogram { get; } = histograms ? new Measurement.LatencyRecorder() : null;

    /// <summary>Gets the measured completions' latencies normalised by deadline, when <c>histograms</c> was asked for.</summary>
    public Measurement.LatencyRecorder? LndHistogram { get; } = histograms ? new Measurement.LatencyRecorder(resolution: 1e-6, highest: 1e6) : null;

    public long AllOffered { get; set; }

    public long AllCompleted { get; set; }

    public long AllDropped { get; set; }

    public long AllFailed { get; set; }

    public long Offered { get; set; }

    public long Admitted { get; set; }

    public long Completed { get; set; }

    public long Dropped { get; set; }

    public long Failed { get; set; }

    public SortedDictionary<string, long> DroppedByReason { get; } = new(StringComparer.Ordinal);

    public SortedDictionary<string, long> FailedByReason { get; } = new(StringComparer.Ordinal);

    public List<double> LatenciesMs { get; } = [];

    public List<double> Lnd { get; } = [];

    /// <summary>Records a measured completion's latency (and its LND when it has a deadline), as samples or in the histograms.</summary>
    public void RecordLatency(double latencyMs, TimeSpan? deadline)
    {
        if (LatencyHistogram is { } histogram)
        {
            histogram.Record(latencyMs);
            if (deadline is { } d)
            {
                LndHistogram!.Record(latencyMs / d.TotalMilliseconds);
            }

            return;
        }

        LatenciesMs.Add(latencyMs);
        if (deadline is { } limit)
        {
            Lnd.Add(latencyMs / limit.TotalMilliseconds);
        }
    }

    /// <summary>Gets the latency summary: exact from the sorted samples, or from the histogram.</summary>
    public (DistributionSummary Latency, DistributionSummary? Lnd, double[] Sorted) Summaries()
    {
        if (LatencyHistogram is { } histogram)
        {
            return (histogram.Summarize(), LndHistogram!.Count == 0 ? null : LndHistogram.Summarize(), []);
        }

        var latencies = LatenciesMs.ToArray();
        Array.Sort(latencies);
        var lnd = Lnd.ToArray();
        Array.Sort(lnd);
        return (DistributionSummary.Of(latencies), lnd.Length == 0 ? null : DistributionSummary.Of(lnd), latencies);
    }

    public List<SecondBin> Bins { get; } = [];

    public SecondBin Bin(int second)
    {
        while (Bins.Count <= second)
        {
            Bins.Add(new SecondBin());
        }

        return Bins[second];
    }
}

/// <summary>One second of one workflow.</summary>
internal sealed class SecondBin
{
    public long Offered { get; set; }

    public long Completed { get; set; }

    public long Dropped { get; set; }

    public long Failed { get; set; }

    public double LatencySumMs { get; set; }
}
