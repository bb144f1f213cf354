// SPDX-License-Identifier: Apache-2.0

using System.Threading.Channels;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>
/// Outcome counting for a live run, shaped like the simulator's so results compare directly. Callers write
/// <see cref="LiveEvent"/>s into a bounded channel (they wait when the collector falls behind); one collector task
/// applies them. Latencies go into HdrHistograms, so memory does not grow with the run's length.
/// </summary>
internal sealed class LiveMetrics
{
    /// <summary>How many events may wait for the collector before callers wait.</summary>
    public const int Capacity = 8192;

    private readonly WorkflowCounters[] _workflows;
    private readonly Channel<LiveEvent> _events = Channel.CreateBounded<LiveEvent>(new BoundedChannelOptions(Capacity)
    {
        SingleReader = true,
        FullMode = BoundedChannelFullMode.Wait,
    });

    private readonly Task _collector;

    public LiveMetrics(WorkflowDef[] workflows)
    {
        _workflows = [.. workflows.Select(w => new WorkflowCounters(w, histograms: true))];
        _collector = CollectAsync();
    }

    /// <summary>Gets the counters; read them only after <see cref="CompleteAsync"/>.</summary>
    public IReadOnlyList<WorkflowCounters> Workflows => _workflows;

    /// <summary>Counts an offer; completes once the collector has room for it.</summary>
    public ValueTask OfferedAsync(int workflow, int second, bool measured) =>
        _events.Writer.WriteAsync(new LiveEvent(workflow, second, measured, Finished: false, default, 0, null), CancellationToken.None);

    /// <summary>Counts an outcome; completes once the collector has room for it.</summary>
    public ValueTask FinishedAsync(int workflow, Outcome outcome, double latencyMs, TimeSpan? deadline, int second, bool measured) =>
        _events.Writer.WriteAsync(new LiveEvent(workflow, second, measured, Finished: true, outcome, latencyMs, deadline), CancellationToken.None);

    /// <summary>Ends the channel and waits until the collector has applied every event.</summary>
    public async Task CompleteAsync()
    {
        _events.Writer.TryComplete();
        await _collector.ConfigureAwait(false);
    }

    private async Task CollectAsync()
    {
        // Yield first: the constructor must not run the collector's loop inline.
        await Task.Yield();
        await foreach (var e in _events.Reader.ReadAllAsync().ConfigureAwait(false))
        {
            Apply(e);
        }
    }

    private void Apply(LiveEvent e)
    {
        var counters = _workflows[e.Workflow];
        var bin = counters.Bin(e.Second);
        if (!e.Finished)
        {
            counters.AllOffered++;
            bin.Offered++;
            if (e.Measured)
            {
                counters.Offered++;
            }

            return;
        }

        switch (e.Outcome.Kind)
        {
            case OutcomeKind.Completed:
                counters.AllCompleted++;
                bin.Completed++;
                bin.LatencySumMs += e.LatencyMs;
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

        if (!e.Measured)
        {
            return;
        }

        switch (e.Outcome.Kind)
        {
            case OutcomeKind.Completed:
                counters.Admitted++;
                counters.Completed++;
                counters.RecordLatency(e.LatencyMs, e.Deadline);
                break;
            case OutcomeKind.Dropped:
                counters.Dropped++;
                Count(counters.DroppedByReason, e.Outcome.Reason);
                break;
            default:
                // A failure (timeout, unreachable) happened after admission: only drops are turned away.
                counters.Admitted++;
                counters.Failed++;
                Count(counters.FailedByReason, e.Outcome.Reason);
                break;
        }
    }

    private static void Count(SortedDictionary<string, long> counts, string reason) =>
        counts[reason] = counts.TryGetValue(reason, out var count) ? count + 1 : 1;
}
