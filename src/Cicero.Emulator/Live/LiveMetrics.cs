// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>Thread-safe outcome counting for a live run, shaped like the simulator's so results compare directly.</summary>
internal sealed class LiveMetrics
{
    private readonly Lock _lock = new();
    private readonly WorkflowCounters[] _workflows;

    public LiveMetrics(WorkflowDef[] workflows) => _workflows = [.. workflows.Select(w => new WorkflowCounters(w))];

    public IReadOnlyList<WorkflowCounters> Workflows => _workflows;

    public void Offered(int workflow, int second, bool measured)
    {
        lock (_lock)
        {
            var counters = _workflows[workflow];
            counters.AllOffered++;
            counters.Bin(second).Offered++;
            if (measured)
            {
                counters.Offered++;
            }
        }
    }

    public void Finished(int workflow, Outcome outcome, double latencyMs, TimeSpan? deadline, int second, bool measured)
    {
        lock (_lock)
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
                    counters.Admitted++;
                    counters.Completed++;
                    counters.LatenciesMs.Add(latencyMs);
                    if (deadline is { } d)
                    {
                        counters.Lnd.Add(latencyMs / d.TotalMilliseconds);
                    }

                    break;
                case OutcomeKind.Dropped:
                    counters.Dropped++;
                    Count(counters.DroppedByReason, outcome.Reason);
                    break;
                default:
                    // A failure (timeout, unreachable) happened after admission: only drops are turned away.
                    counters.Admitted++;
                    counters.Failed++;
                    Count(counters.FailedByReason, outcome.Reason);
                    break;
            }
        }
    }

    private static void Count(SortedDictionary<string, long> counts, string reason) =>
        counts[reason] = counts.TryGetValue(reason, out var count) ? count + 1 : 1;
}
