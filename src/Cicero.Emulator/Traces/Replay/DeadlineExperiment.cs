// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Emulator.Measurement;
using Cicero.Emulator.Scenarios;
using Cicero.Policies.Dropping;
using Cicero.Policies.Scheduling;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>
/// The deadline experiment of the dissertation's section 5.3.2 (Table 5.4) in the simulated runner: measure each
/// request's completion time in isolation, set its deadline to k times that, replay the trace at several load levels
/// under several configurations, and report the latency normalized by the deadline (LND) and the drop fraction.
/// </summary>
/// <remarks>
/// Isolation is measured in one simulation that replays the trace with its requests spaced one RPC timeout plus a
/// second apart, so each runs alone on the idle topology (no rate control, FIFO, no drops) with its own fan-out and
/// service times. The isolated times are kept in one array indexed by the request's sequence (8 bytes per request):
/// unlike a plain replay, the experiment's memory grows with the trace. A request that fails even alone gets the RPC
/// timeout as its base time. Deadlines are soft (<see cref="SimulatedReplayOptions.SoftDeadlines"/>): they order EDF and
/// LSTF queues and drive deadline-feasibility drops, but a late request completes late, as in Table 5.4 where LND
/// exceeds 1. With <see cref="DeadlineExperimentOptions.RequestEstimates"/>, each request carries the service time and
/// load its isolated run accrued as its end-to-end estimate (what LSTF subtracts from the deadline).
/// </remarks>
public static class DeadlineExperiment
{
    /// <summary>Gets the configuration names of <see cref="DefaultConfigurations"/>, in order.</summary>
    public static IReadOnlyList<string> DefaultNames { get; } = ["Baseline", "FIFO+RC", "EDF+RC", "LSTF+RC"];

    /// <summary>
    /// Creates the configurations of Table 5.4: Baseline (no rate control, FIFO, no drops), and rate control
    /// (bottleneck fairness, deadline-feasibility drops) with FIFO, EDF and LSTF sub-task schedulers.
    /// </summary>
    /// <returns>Four new configurations.</returns>
    public static IList<ConfigurationSpec> DefaultConfigurations() =>
    [
        new ConfigurationSpec { Name = DefaultNames[0], RateControl = false, Scheduler = SubtaskSchedulerNames.Fifo, DropPolicy = DropPolicies.Never },
        new ConfigurationSpec { Name = DefaultNames[1], Scheduler = SubtaskSchedulerNames.Fifo, DropExpiredSubtasks = true },
        new ConfigurationSpec { Name = DefaultNames[2], Scheduler = SubtaskSchedulerNames.EarliestDeadlineFirst, DropExpiredSubtasks = true },
        new ConfigurationSpec { Name = DefaultNames[3], Scheduler = SubtaskSchedulerNames.LeastSlackTimeFirst, DropExpiredSubtasks = true },
    ];

    /// <summary>
    /// Reshapes a replay plan's topology for the experiment: drops thread and connection pools and gives every other
    /// resource (a disk per block server, a compute permit per partition server, a cpu per Auth instance) one permit,
    /// so that modest speed-ups of a small public trace saturate the storage tier.
    /// </summary>
    /// <remarks>
    /// The pools never bind at these loads, and their holds would count in the progress metrics as service time: a PS
    /// thread is held across its BS calls, so the sum of holds is several times the critical path and LSTF's
    /// remaining-time term would dwarf the slack.
    /// </remarks>
    /// <param name="plan">The plan whose scenario is changed in place.</param>
    /// <returns><paramref name="plan"/>.</returns>
    public static TraceReplayPlan UseSingleServerResources(TraceReplayPlan plan) => UseResources(plan, 1);

    /// <summary>
    /// Reshapes a replay plan's topology as <see cref="UseSingleServerResources"/> does, with <paramref name="permits"/>
    /// permits per resource: the closed-loop table sizes the storage tier so that the paper's 100 to 250 clients span
    /// moderate load to overload.
    /// </summary>
    /// <param name="plan">The plan whose scenario is changed in place.</param>
    /// <param name="permits">Permits per resource, at least 1.</param>
    /// <returns><paramref name="plan"/>.</returns>
    public static TraceReplayPlan UseResources(TraceReplayPlan plan, int permits)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentOutOfRangeException.ThrowIfLessThan(permits, 1);
        foreach (var service in plan.Scenario.Services ?? [])
        {
            service.Resources = [.. (service.Resources ?? []).Where(r => r.Kind is not (ResourceKinds.ThreadPool or ResourceKinds.ConnectionPool))];
            foreach (var resource in service.Resources)
            {
                resource.Capacity = permits;
            }
        }

        return plan;
    }

    /// <summary>Runs the experiment.</summary>
    /// <param name="plan">The replay plan (its requests' costs and arrivals).</param>
    /// <param name="options">The options; defaults when omitted.</param>
    /// <returns>The isolated times' summary and one row per load level and configuration.</returns>
    /// <exception cref="ArgumentException">An option is out of range, or the trace has more than <see cref="Array.MaxLength"/> requests.</exception>
    public static DeadlineExperimentResult Run(TraceReplayPlan plan, DeadlineExperimentOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(plan);
        options ??= new DeadlineExperimentOptions();
        if (!(options.K > 0 && double.IsFinite(options.K)) || options.LoadLevels is null || options.LoadLevels.Count == 0)
        {
            throw new ArgumentException("K must be a positive number and LoadLevels must list at least one level.", nameof(options));
        }

        if (plan.RequestCount > Array.MaxLength)
        {
            throw new ArgumentException($"The trace has {plan.RequestCount} requests; the experiment keeps one time per request and handles at most {Array.MaxLength}.", nameof(plan));
        }

        var configurations = options.Configurations ?? DefaultConfigurations();
        var (isolated, estimates) = MeasureIsolated(plan, options);
        var deadlines = new double[isolated.Length];
        for (var i = 0; i < isolated.Length; i++)
        {
            deadlines[i] = options.K * isolated[i];
        }

        var rows = new List<DeadlineExperimentRow>();
        var run = 1L;
        foreach (var level in options.LoadLevels)
        {
            foreach (var configuration in configurations)
            {
                var row = options.Stop.IsCancellationRequested ? null : RunOne(plan, options, configuration, level, deadlines, options.RequestEstimates ? estimates : null, Shifted(options.Progress, run++ * plan.RequestCount));
                if (row is null || options.Stop.IsCancellationRequested)
                {
                    break;
                }

                rows.Add(row);
            }
        }

        return new DeadlineExperimentResult(options.K, isolated.Length == 0 ? 0 : isolated.Average(), isolated.Length == 0 ? 0 : isolated.Max(), options.ClosedLoop, rows)
        {
            EstimateOverIsolated = EstimateRatios(isolated, estimates),
        };
    }

    private static (double[] Isolated, ProgressDelta[] Estimates) MeasureIsolated(TraceReplayPlan plan, DeadlineExperimentOptions options)
    {
        var estimates = new ProgressDelta[plan.RequestCount];
        var timeoutMs = (plan.Scenario.Network ?? new NetworkSpec()).RpcTimeoutMs;
        var isolated = new double[plan.RequestCount];
        var alone = new ConfigurationSpec { Name = "isolation", RateControl = false, Scheduler = SubtaskSchedulerNames.Fifo, DropPolicy = DropPolicies.Never };
        var replay = new SimulatedReplayOptions { Seed = options.Seed, Progress = options.Progress };
        SimulatedReplay.RunCore(plan, alone, replay, options.Catalog, isolationGapSeconds: (timeoutMs / 1000) + 1,
            (request, ok, ms) =>
            {
                var sequence = request.Trace!.Value.Sequence;
                isolated[sequence] = ok ? ms : timeoutMs;
                estimates[sequence] = new ProgressDelta(request.Context!.ElapsedServiceTime, request.Context.ElapsedLoad);
            },
            options.Stop);
        return (isolated, estimates);
    }

    /// <summary>
    /// How far LSTF's remaining-time base (the service time a request accrues, st of its progress metrics) is from the time
    /// the request takes alone (its critical path): one ratio per request that completed in isolation, summarised.
    /// </summary>
    private static DistributionSummary? EstimateRatios(double[] isolated, ProgressDelta[] estimates)
    {
        var ratios = new List<double>(isolated.Length);
        for (var i = 0; i < isolated.Length; i++)
        {
            if (isolated[i] > 0 && estimates[i].ServiceTime > 0)
            {
                ratios.Add(estimates[i].ServiceTime * 1000 / isolated[i]);
            }
        }

        var sorted = ratios.ToArray();
        Array.Sort(sorted);
        return sorted.Length == 0 ? null : DistributionSummary.Of(sorted);
    }

    private static DeadlineExperimentRow RunOne(TraceReplayPlan plan, DeadlineExperimentOptions options, ConfigurationSpec configuration, double level, double[] deadlines, ProgressDelta[]? estimates, IProgress<long>? progress)
    {
        var replay = new SimulatedReplayOptions
        {
            Seed = options.Seed,
            Progress = progress,
            DeadlineMs = r => deadlines[r.Sequence],
            SoftDeadlines = true,
            EstimatedTotal = estimates is null ? null : r => estimates[r.Sequence],
        };
        if (options.ClosedLoop)
        {
            replay.ClosedLoopClients = checked((int)level);
        }
        else
        {
            replay.SpeedUp = level;
        }

        var lnd = new List<double>();
        var result = SimulatedReplay.RunCore(
            plan,
            configuration,
            replay,
            options.Catalog,
            isolationGapSeconds: 0,
            (request, ok, ms) =>
            {
                if (ok)
                {
                    lnd.Add(ms / deadlines[request.Trace!.Value.Sequence]);
                }
            },
            options.Stop);
        var values = lnd.ToArray();
        Array.Sort(values);
        var summary = values.Length == 0 ? null : DistributionSummary.Of(values);
        var late = values.Length == 0 ? 0 : values.Length - LowerBound(values, 1.0 + 1e-12);
        return new DeadlineExperimentRow(
            level,
            configuration.Name ?? "configuration",
            result.Workflows.Sum(w => w.Offered),
            result.Workflows.Sum(w => w.Completed),
            result.Workflows.Sum(w => w.Dropped),
            result.Workflows.Sum(w => w.Failed),
            summary?.Mean ?? 0,
            summary?.P95 ?? 0,
            summary?.P99 ?? 0,
            values.Length == 0 ? 0 : (double)late / values.Length)
        {
            OnTime = values.Length - late,
            DroppedByReason = result.Workflows.SelectMany(w => w.DroppedByReason).GroupBy(p => p.Key).ToDictionary(g => g.Key, g => g.Sum(p => p.Value)),
        };
    }

    /// <summary>The index of the first value at or above <paramref name="value"/> in a sorted array.</summary>
    private static int LowerBound(double[] sorted, double value)
    {
        var index = Array.BinarySearch(sorted, value);
        if (index < 0)
        {
            return ~index;
        }

        while (index > 0 && sorted[index - 1] >= value)
        {
            index--;
        }

        return index;
    }

    private static ShiftedProgress? Shifted(IProgress<long>? progress, long offset) => progress is null ? null : new ShiftedProgress(progress, offset);

    /// <summary>A run's offered count reported as the experiment's: the earlier runs' requests added.</summary>
    private sealed class ShiftedProgress(IProgress<long> inner, long offset) : IProgress<long>
    {
        public void Report(long value) => inner.Report(offset + value);
    }
}
