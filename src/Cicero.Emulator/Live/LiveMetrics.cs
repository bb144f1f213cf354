// SPDX-License-Identifier: Apache-2.0

using System.Threading.Channels;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>
/// Outcome counting for a live run: the simulator's <see cref="RunMetrics"/> behind a channel. Callers write
/// <see cref="LiveEvent"/>s into a bounded channel (they wait when the collector falls behind); one collector task
/// applies them, so the counts see one thread as in the simulator. Latencies go into HdrHistograms, so memory does not
/// grow with the run's length.
/// </summary>
internal sealed class LiveMetrics
{
    /// <summary>How many events may wait for the collector before callers wait.</summary>
    public const int Capacity = 8192;

    private readonly Channel<LiveEvent> _events = Channel.CreateBounded<LiveEvent>(new BoundedChannelOptions(Capacity)
    {
        SingleReader = true,
        FullMode = BoundedChannelFullMode.Wait,
    });

    private readonly Task _collector;

    public LiveMetrics(WorkflowDef[] workflows)
    {
        Metrics = new RunMetrics(workflows, histograms: true);
        _collector = CollectAsync();
    }

    /// <summary>Gets the counts; read them only after <see cref="CompleteAsync"/>.</summary>
    public RunMetrics Metrics { get; }

    /// <summary>Gets the counters; read them only after <see cref="CompleteAsync"/>.</summary>
    public IReadOnlyList<WorkflowCounters> Workflows => Metrics.Workflows;

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
        if (!e.Finished)
        {
            Metrics.Offered(e.Workflow, e.Second, e.Measured);
            return;
        }

        // The load generator does not see admission at the entry: a failure (timeout, unreachable) happened after it,
        // so every outcome but a drop counts as admitted.
        if (e.Outcome.Kind != OutcomeKind.Dropped)
        {
            Metrics.Admitted(e.Workflow, e.Measured);
        }

        Metrics.Outcome(e.Workflow, e.Outcome, e.LatencyMs, e.Deadline, e.Second, e.Measured);
    }
}
