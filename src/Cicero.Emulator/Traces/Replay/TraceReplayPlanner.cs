// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>
/// Turns a trace into a <see cref="TraceReplayPlan"/>: one pass over the trace, in memory proportional to the number of
/// workflows (not requests), finds the workflows (one per tenant and operation), their statistics and DAGs, and builds
/// the scenario skeleton on the default FE -> Auth -> PS -> BS topology.
/// </summary>
public static class TraceReplayPlanner
{
    /// <summary>Plans a replay.</summary>
    /// <param name="trace">
    /// The trace in arrival order, for example <see cref="TraceReader.ReadFile"/> or an importer's
    /// <see cref="Importers.TraceImport.ReadFile"/>. It is enumerated once now, and again each time the plan's
    /// <see cref="TraceReplayPlan.Requests"/> is; it must give the same requests each time.
    /// </param>
    /// <param name="options">The options; defaults when omitted.</param>
    /// <returns>The plan.</returns>
    /// <exception cref="ArgumentException">An option is out of range, or the trace has more workflows than allowed.</exception>
    /// <exception cref="TraceFormatException">The trace has no requests, or is malformed.</exception>
    public static TraceReplayPlan Create(IEnumerable<TraceRequest> trace, TraceReplayOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(trace);
        options ??= new TraceReplayOptions();
        Validate(options);
        var costModel = options.CostModel.Clone();
        var index = new Dictionary<(string Tenant, string Operation), int>();
        var workflows = new List<TraceWorkflow>();
        var stats = new List<Moments>();
        var names = new HashSet<string>(StringComparer.Ordinal);
        long count = 0;
        double last = 0;
        foreach (var request in trace)
        {
            if (!index.TryGetValue((request.Tenant, request.Operation), out var w))
            {
                if (workflows.Count == options.MaxWorkflows)
                {
                    throw new ArgumentException($"The trace has more than {options.MaxWorkflows} workflows (tenant and operation pairs); raise MaxWorkflows or filter the trace.", nameof(trace));
                }

                w = workflows.Count;
                index.Add((request.Tenant, request.Operation), w);
                var workflow = new TraceWorkflow(w, UniqueName(names, $"{request.Tenant}.{request.Operation}"), request.Tenant, request.Operation,
                    costModel.WriteOperations.Contains(request.Operation))
                {
                    FirstArrivalSeconds = Seconds(request.ArrivalMs, options.TimeScale),
                };
                workflows.Add(workflow);
                stats.Add(new Moments());
            }

            var costs = costModel.Evaluate(request);
            var s = stats[w];
            s.FanOut.Add(costs.FanOut);
            s.Auth.Add(costs.AuthMs);
            s.Ps.Add(costs.PsMs);
            if (costs.FanOut > 0)
            {
                s.Bs.Add(costs.BsMs);
            }

            s.MaxFanOut = Math.Max(s.MaxFanOut, costs.FanOut);
            s.RequestBytes += request.RequestBytes;
            s.ResponseBytes += request.ResponseBytes;
            last = request.ArrivalMs;
            count++;
        }

        for (var w = 0; w < workflows.Count; w++)
        {
            Finish(workflows[w], stats[w], options.Partitions);
        }

        if (count == 0)
        {
            // A replay of nothing has no workflows and no scenario to run; say so rather than fail later.
            throw new TraceFormatException("The trace has no requests (a header without rows?); there is nothing to replay.");
        }

        var duration = Math.Floor(Seconds(last, options.TimeScale)) + 1;
        var scenario = new ScenarioSpec
        {
            Name = options.ScenarioName,
            Description = $"Replay of a trace of {count} requests in {workflows.Count} workflows (tenant.operation), time scale {options.TimeScale}; FE -> Auth -> PS -> BS with service times from sizes.",
            DurationSeconds = duration,
            WarmUpSeconds = 0,
            Services = DefaultTopology.CreateServices(),
            Routes = DefaultTopology.CreateRoutes(),
            Workflows = [.. workflows.Select(w => w.Spec)],
            Workloads = [],
            Configurations = [],
        };
        return new TraceReplayPlan(scenario, workflows, index, trace, costModel, options.TimeScale, count, duration);
    }

    internal static double Seconds(double arrivalMs, double timeScale) => arrivalMs / 1000 / timeScale;

    private static void Validate(TraceReplayOptions options)
    {
        if (!(options.TimeScale > 0 && double.IsFinite(options.TimeScale)))
        {
            throw new ArgumentException($"TimeScale must be a positive number, was {options.TimeScale}.", nameof(options));
        }

        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(options.Partitions, nameof(options));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(options.MaxWorkflows, nameof(options));
        ArgumentException.ThrowIfNullOrEmpty(options.ScenarioName, nameof(options));
        ArgumentNullException.ThrowIfNull(options.CostModel, nameof(options));
        options.CostModel.Validate();
    }

    private static string UniqueName(HashSet<string> names, string name)
    {
        var unique = name;
        for (var n = 2; !names.Add(unique); n++)
        {
            unique = $"{name}+{n}";
        }

        return unique;
    }

    private static void Finish(TraceWorkflow workflow, Moments s, int partitions)
    {
        workflow.Requests = s.FanOut.Count;
        workflow.MeanFanOut = s.FanOut.Mean;
        workflow.MaxFanOut = s.MaxFanOut;
        workflow.MeanAuthMs = s.Auth.Mean;
        workflow.MeanPsMs = s.Ps.Mean;
        workflow.MeanBsMs = s.Bs.Mean;
        workflow.RequestBytes = s.RequestBytes;
        workflow.ResponseBytes = s.ResponseBytes;

        var psStages = new List<StageSpec>();
        var fanOut = (int)Math.Round(s.FanOut.Mean, MidpointRounding.AwayFromZero);
        if (fanOut > 0)
        {
            psStages.Add(new StageSpec
            {
                Call = DefaultTopology.BlockService,
                Count = fanOut,
                InParallel = true,
                Replicas = workflow.IsWrite ? ReplicaTargets.Primary : ReplicaTargets.Selected,
                Stages = [new StageSpec { Use = "disk", ServiceTime = Distribution(s.Bs) }],
            });
        }

        psStages.Add(new StageSpec { Use = "compute", ServiceTime = Distribution(s.Ps) });
        workflow.Spec = new WorkflowSpec
        {
            Name = workflow.Name,
            Partitions = partitions,
            Stages =
            [
                new StageSpec { Call = DefaultTopology.Auth, Stages = [new StageSpec { Use = "cpu", ServiceTime = Distribution(s.Auth) }] },
                new StageSpec { Call = DefaultTopology.PartitionService, Stages = psStages },
            ],
        };
    }

    private static DistributionSpec Distribution(RunningMoments moments)
    {
        // Sizes vary widely (39 B to 8 MB in the Meta block sample), so a log-normal with the measured mean and spread
        // fits better than the exponential the synthetic workloads use; a constant when every request cost the same.
        const double Tolerance = 1e-9;
        return moments.Mean <= 0 || moments.Cv < Tolerance
            ? new DistributionSpec { Distribution = DistributionKinds.Constant, MeanMs = Math.Max(0, moments.Mean) }
            : new DistributionSpec { Distribution = DistributionKinds.LogNormal, MeanMs = moments.Mean, Cv = moments.Cv };
    }

    /// <summary>Running statistics of one workflow.</summary>
    private sealed class Moments
    {
        public RunningMoments FanOut;
        public RunningMoments Auth;
        public RunningMoments Ps;
        public RunningMoments Bs;
        public int MaxFanOut;
        public long RequestBytes;
        public long ResponseBytes;
    }
}
