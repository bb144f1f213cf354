// SPDX-License-Identifier: Apache-2.0

using Cicero.Runtime;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// The results pipeline both runners feed: from a run's <see cref="RunMetrics"/> (outcomes counted the same way live
/// and simulated) to a <see cref="TopologyRunResult"/>, with the conservation check, the per-workflow summaries
/// (percentiles, LND, rates over the measured window), the per-second series, the resource utilisations and the
/// per-tier Σσ samples. What differs between the runners is only how they measure busy time and when they sample;
/// what a figure means is decided here, once.
/// </summary>
internal static class RunResults
{
    /// <summary>
    /// Checks conservation (every offered request has exactly one outcome, over the whole run and over the measured
    /// window, and none is still in flight) and summarises the run.
    /// </summary>
    /// <param name="metrics">The run's counts.</param>
    /// <param name="inputs">What the runner measured besides the counts.</param>
    /// <param name="leaveOutLongIdle">Whether the per-second series leaves out long idle stretches (<see cref="IdleGap.LongIdleSeconds"/>): a replay's span follows its trace, not the run's size.</param>
    /// <returns>The result.</returns>
    /// <exception cref="ConservationException">A request was lost or counted twice, or is still in flight.</exception>
    public static TopologyRunResult Build(RunMetrics metrics, RunResultInputs inputs, bool leaveOutLongIdle = false)
    {
        var name = inputs.Configuration;
        foreach (var counters in metrics.Workflows)
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

        if (inputs.Unfinished != 0)
        {
            throw new ConservationException($"Conservation broken under configuration '{name}': {inputs.Unfinished} request(s) still in flight at the end of the {inputs.RunKind}.");
        }

        var window = inputs.WindowSeconds;
        var workflows = new List<WorkflowRunResult>();
        var series = new List<WorkflowSecond>();
        var idle = leaveOutLongIdle ? IdleGap.LongIdleSeconds([.. metrics.Workflows.Select(static w => (IReadOnlyList<SecondBin>)w.Bins)]) : [];
        foreach (var counters in metrics.Workflows)
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
                AdmissionToAllowance = BottleneckRatio.Measure(counters.Workflow, inputs.Rates, inputs.WarmUpSeconds),
            });

            for (var second = 0; second < counters.Bins.Count; second++)
            {
                if (second < idle.Length && idle[second])
                {
                    continue;
                }

                var bin = counters.Bins[second];
                series.Add(new WorkflowSecond(
                    second, counters.Workflow.Name, bin.Offered, bin.Completed, bin.Dropped, bin.Failed,
                    bin.Completed == 0 ? null : bin.LatencySumMs / bin.Completed));
            }
        }

        return new TopologyRunResult
        {
            Scenario = inputs.Scenario,
            Configuration = name,
            Seed = inputs.Seed,
            DurationSeconds = inputs.DurationSeconds,
            WarmUpSeconds = inputs.WarmUpSeconds,
            EndSeconds = inputs.EndSeconds,
            Events = inputs.Events,
            Requests = inputs.Requests,
            Workflows = workflows,
            Resources = inputs.Resources,
            TimeSeries = series,
            Rates = inputs.Rates,
            Interrupted = inputs.Interrupted,
        };
    }

    /// <summary>Each service's resources' mean and peak utilisation over its instances.</summary>
    /// <param name="services">The topology's services.</param>
    /// <param name="utilization">A resource's utilisation at one instance: (service, instance, resource) to a fraction.</param>
    /// <returns>One row per service and resource.</returns>
    public static List<ResourceUtilization> Utilizations(IReadOnlyList<ServiceDef> services, Func<ServiceDef, int, int, double> utilization)
    {
        var list = new List<ResourceUtilization>();
        foreach (var service in services)
        {
            for (var r = 0; r < service.Resources.Length; r++)
            {
                var spec = service.Resources[r];
                var sum = 0.0;
                var max = 0.0;
                for (var i = 0; i < service.Instances; i++)
                {
                    var value = utilization(service, i, r);
                    sum += value;
                    max = Math.Max(max, value);
                }

                list.Add(new ResourceUtilization(service.Name, spec.Name!, spec.Kind!, spec.Capacity, sum / service.Instances, max));
            }
        }

        return list;
    }

    /// <summary>Adds one second's Σσ per tier and workflow: the rates the tier's instances announce now.</summary>
    /// <param name="rates">Where the samples go.</param>
    /// <param name="second">The second of the run.</param>
    /// <param name="compiled">The topology.</param>
    /// <param name="runtimes">A service's instances' runtimes (those running).</param>
    public static void SampleRates(List<TierRateSecond> rates, int second, CompiledScenario compiled, Func<ServiceDef, IEnumerable<CiceroRuntime>> runtimes)
    {
        foreach (var service in compiled.Services)
        {
            foreach (var workflow in compiled.Workflows)
            {
                // Instances the workflow never reaches (or that do not limit it) announce +∞; they are left out of Σσ.
                var total = 0.0;
                var limited = 0;
                var arrivals = 0.0;
                var admitted = 0.0;
                foreach (var runtime in runtimes(service))
                {
                    var sigma = runtime.RateAdaptation.GetAnnouncedRate(workflow.Id);
                    if (double.IsFinite(sigma))
                    {
                        total += sigma;
                        limited++;
                    }

                    if (runtime.Registry.TryGet(workflow.Id, out var slot) && runtime.Model.Find(slot.Index) is { } model)
                    {
                        arrivals += model.ArrivalRate;
                        admitted += model.AdmittedRate;
                    }
                }

                rates.Add(new TierRateSecond(second, service.Name, workflow.Name, limited == 0 ? null : total, limited, arrivals, admitted));
            }
        }
    }
}
