// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Results: the conservation check and the per-workflow, per-second and per-resource figures.</summary>
public sealed partial class TopologySimulation
{
    private TopologyRunResult BuildResult()
    {
        var name = _configuration.Name ?? "configuration";
        foreach (var counters in _metrics.Workflows)
        {
            if (counters.AllOffered != counters.AllCompleted + counters.AllDropped + counters.AllFailed)
            {
                throw new ConservationException(name, counters.Workflow.Name, counters.AllOffered, counters.AllCompleted, counters.AllDropped, counters.AllFailed);
            }

            if (counters.Offered != counters.Completed + counters.Dropped + counters.Failed)
            {
                throw new ConservationException(name, counters.Workflow.Name, counters.Offered, counters.Completed, counters.Dropped, counters.Failed);
            }
        }

        if (_inFlight != 0)
        {
            throw new ConservationException($"Conservation broken under configuration '{name}': {_inFlight} request(s) still in flight at the end of the run.");
        }

        // The measured window: the scenario's, unless the run was stopped early or is a replay (Run sets the end then).
        var window = _replay is null && !Stopped
            ? _scenario.DurationSeconds - _scenario.WarmUpSeconds
            : (WindowEndTicks - WindowStartTicks) / (double)TimeSpan.TicksPerSecond;
        var workflows = new List<WorkflowRunResult>();
        var series = new List<WorkflowSecond>();
        foreach (var counters in _metrics.Workflows)
        {
            var (latency, lnd, sorted) = counters.Summaries();
            counters.FailedByReason.TryGetValue(Outcome.Timeout, out var timedOut);
            workflows.Add(new WorkflowRunResult
            {
                Workflow = counters.Workflow.Name,
                Offered = counters.Offered,
                Admitted = counters.Admitted,
                Completed = counters.Completed,
                Dropped = counters.Dropped,
                Failed = counters.Failed,
                TimedOut = timedOut,
                DroppedByReason = new SortedDictionary<string, long>(counters.DroppedByReason, StringComparer.Ordinal),
                FailedByReason = new SortedDictionary<string, long>(counters.FailedByReason, StringComparer.Ordinal),
                Throughput = counters.Completed / window,
                OfferedRate = counters.Offered / window,
                CompletedFraction = counters.Offered == 0 ? double.NaN : (double)counters.Completed / counters.Offered,
                LatencyMs = latency,
                Lnd = lnd,
                LatenciesMs = sorted,
            });

            for (var second = 0; second < counters.Bins.Count; second++)
            {
                var bin = counters.Bins[second];
                series.Add(new WorkflowSecond(
                    second, counters.Workflow.Name, bin.Offered, bin.Completed, bin.Dropped, bin.Failed,
                    bin.Completed == 0 ? null : bin.LatencySumMs / bin.Completed));
            }
        }

        return new TopologyRunResult
        {
            Scenario = _scenario.Name ?? string.Empty,
            Configuration = name,
            Seed = _scenario.Seed,
            DurationSeconds = _scenario.DurationSeconds,
            WarmUpSeconds = _scenario.WarmUpSeconds,
            EndSeconds = Clock.Elapsed.TotalSeconds,
            Events = Clock.CallbacksRun,
            Requests = _nextRequestId,
            Workflows = workflows,
            Resources = Utilizations(),
            TimeSeries = series,
            Rates = _rates,
            Interrupted = Stopped,
        };
    }

    private List<ResourceUtilization> Utilizations()
    {
        var windowTicks = (double)(WindowEndTicks - WindowStartTicks);
        var list = new List<ResourceUtilization>();
        foreach (var service in Compiled.Services)
        {
            for (var r = 0; r < service.Resources.Length; r++)
            {
                var spec = service.Resources[r];
                var sum = 0.0;
                var max = 0.0;
                foreach (var instance in Instances[service.Index])
                {
                    var utilization = instance.BusyTicks[r] / (spec.Capacity * windowTicks);
                    sum += utilization;
                    max = Math.Max(max, utilization);
                }

                list.Add(new ResourceUtilization(service.Name, spec.Name!, spec.Kind!, spec.Capacity, sum / service.Instances, max));
            }
        }

        return list;
    }
}
