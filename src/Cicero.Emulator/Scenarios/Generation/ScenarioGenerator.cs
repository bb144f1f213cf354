// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>
/// Makes random but reproducible service graphs in the scenario format, to try Cicero on shapes nobody wrote by hand:
/// a chain of 2-8 services from an entry tier, each calling the next 1-16 times (in parallel or one after another, the
/// call before, after or beside the service's own work), 1-20 instances per service, work resources (disk or compute)
/// of 1-16 permits with exponential, constant or log-normal service times, 1-4 tenants with their own costs, offered
/// load 30-95% of the bottleneck's capacity, and optionally one aggressive tenant (2-10x its fair share) or one tenant
/// bursting to 5x its average.
/// </summary>
/// <remarks>
/// The same seed gives the same scenario. Thread and connection pools are sized well above the load so the work
/// resources are where capacity ends; rates keep a run's sub-task count small enough to simulate in about a second.
/// </remarks>
public static class ScenarioGenerator
{
    /// <summary>
    /// The least end-to-end deadline and RPC timeout of generated configurations, in milliseconds; a deep graph whose
    /// unloaded latency needs more gets <see cref="DeadlineOverLatency"/> times that latency.
    /// </summary>
    public const double MinimumDeadlineMs = 5000;

    /// <summary>The deadline's least multiple of the unloaded critical-path latency of the costliest tenant.</summary>
    public const double DeadlineOverLatency = 8;

    // Tenants' costs are drawn in [0.5, 2]: the deadline covers the costliest.
    private const double MaxCost = 2;

    // The unloaded critical path of a unit-cost request the generator aims for, in milliseconds.
    private const double LatencyBudgetMs = 400;

    private const int MaxFanOutProduct = 48;
    private const double MaxSubtaskRate = 2500;

    /// <summary>
    /// The largest seed. <see cref="Random"/> seeded with −N draws what it draws for N, and with <see cref="int.MaxValue"/>
    /// what it draws for 0, so seeds are 0 to this, each giving a scenario of its own.
    /// </summary>
    public const int MaxSeed = int.MaxValue - 1;

    /// <summary>Generates a scenario.</summary>
    /// <param name="seed">The seed, 0 to <see cref="MaxSeed"/>; also the scenario's run seed.</param>
    /// <param name="loadKind">One of <see cref="GeneratedLoadKinds.All"/>, or <see langword="null"/> to let the seed choose.</param>
    /// <returns>The scenario and what the generator knows about it.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The seed is negative or above <see cref="MaxSeed"/>.</exception>
    /// <exception cref="ArgumentException">Unknown load kind.</exception>
    public static GeneratedScenario Generate(int seed, string? loadKind = null)
    {
        if (seed is < 0 or > MaxSeed)
        {
            throw new ArgumentOutOfRangeException(nameof(seed), seed, string.Create(CultureInfo.InvariantCulture, $"Seeds are 0 to {MaxSeed}: a negative seed, or {int.MaxValue}, would repeat the scenario of another."));
        }

        if (loadKind is not null && !GeneratedLoadKinds.All.Contains(loadKind))
        {
            throw new ArgumentException($"Unknown load kind '{loadKind}'; expected one of {string.Join(", ", GeneratedLoadKinds.All)}.", nameof(loadKind));
        }

        var random = new Random(seed);
        loadKind ??= GeneratedLoadKinds.All[random.Next(GeneratedLoadKinds.All.Count)];
        var depth = random.Next(2, 9);
        var services = new List<ServiceShape>();
        var calls = 1;
        for (var i = 0; i < depth; i++)
        {
            var fanOut = i == depth - 1 ? 1 : PickFanOut(random, calls);
            services.Add(new ServiceShape(
                Name: i == 0 ? "entry" : i == depth - 1 ? "leaf" : "tier" + i.ToString(CultureInfo.InvariantCulture),
                Instances: random.Next(1, 21),
                Permits: random.Next(1, 17),
                Kind: random.Next(2) == 0 ? ResourceKinds.Disk : ResourceKinds.Compute,
                Distribution: DistributionKinds.All[random.Next(DistributionKinds.All.Count)],
                Cv: 0.5 + (random.NextDouble() * 1.5),
                CallsPerRequest: calls,
                FanOut: fanOut,
                InParallel: random.Next(3) != 0,
                Placement: random.Next(3),
                Utilization: 0.15 + (random.NextDouble() * 0.85)));
            calls *= fanOut;
        }

        // One service is the bottleneck: its work is sized to be saturated at the reference rate, the others less.
        var bottleneck = random.Next(depth);
        services[bottleneck] = services[bottleneck] with { Utilization = 1 };
        var totalCalls = services.Sum(s => s.CallsPerRequest);
        var referenceRate = Math.Clamp(MaxSubtaskRate / totalCalls, 5, 400) * (0.3 + (random.NextDouble() * 0.7));

        var tenants = random.Next(1, 5);
        var costs = new double[tenants];
        var weights = new double[tenants];
        for (var t = 0; t < tenants; t++)
        {
            costs[t] = 0.5 + (random.NextDouble() * 1.5);
            weights[t] = 0.2 + random.NextDouble();
        }

        var meanMs = MeanServiceTimes(services, referenceRate);

        // Many slots at a low rate mean long service times, and down a deep chain with fan-out they add up to seconds
        // per request. Fewer instances and permits shorten them at the same rate (and run cost), until the unit-cost
        // request fits the latency budget or every service is down to one instance with one permit.
        for (var round = 0; round < 8 && CriticalPathMs(services, meanMs, 0) > LatencyBudgetMs; round++)
        {
            var shrink = Math.Sqrt(LatencyBudgetMs / CriticalPathMs(services, meanMs, 0));
            for (var i = 0; i < services.Count; i++)
            {
                services[i] = services[i] with
                {
                    Instances = Math.Max(1, (int)Math.Floor(services[i].Instances * shrink)),
                    Permits = Math.Max(1, (int)Math.Floor(services[i].Permits * shrink)),
                };
            }

            meanMs = MeanServiceTimes(services, referenceRate);
        }

        // Capacity in requests/s of unit cost at each service, after the clamp; the bottleneck is the smallest.
        var capacity = services.Select((s, i) => s.Instances * s.Permits * 1000 / (meanMs[i] * s.CallsPerRequest)).ToArray();
        var bottleneckIndex = Array.IndexOf(capacity, capacity.Min());

        // A deadline below what a request needs on an idle graph makes completions a lottery at the deadline, which
        // no comparison between configurations survives (seed 4: the baseline completed 11% of t1 with p99 at the
        // deadline, and rc's 0.5% difference from it was chance).
        var unloadedMs = CriticalPathMs(services, meanMs, 0) * MaxCost;
        var deadlineMs = Math.Max(MinimumDeadlineMs, Math.Ceiling(DeadlineOverLatency * unloadedMs / 1000) * 1000);

        var load = loadKind == GeneratedLoadKinds.Aggressor ? 0.2 + (random.NextDouble() * 0.4)
            : loadKind == GeneratedLoadKinds.Bursty ? 0.3 + (random.NextDouble() * 0.35)
            : 0.3 + (random.NextDouble() * 0.65);
        var scenario = new ScenarioSpec
        {
            Name = "generated-" + seed.ToString(CultureInfo.InvariantCulture),
            Seed = seed,
            // Long enough for the loop to settle (5 s, 50 intervals) and for a burst in the measured window (bursts start
            // at 1-8 s and recur every 10 s); short enough for a 2,000-seed sweep.
            DurationSeconds = 20,
            WarmUpSeconds = 5,
            EntryService = services[0].Name,
            Network = new NetworkSpec { OneWayDelayMs = 0.25, RpcTimeoutMs = deadlineMs },
            Services = services.Select(ToService).ToList(),
            Routes = [],
            Workflows = [],
            Workloads = [],
            Configurations =
            [
                new ConfigurationSpec { Name = "baseline", RateControl = false, DeadlineMs = deadlineMs },
                new ConfigurationSpec { Name = "rc", DeadlineMs = deadlineMs },
                new ConfigurationSpec { Name = "drr", RateControl = false, Scheduler = "drr", DeadlineMs = deadlineMs },
                new ConfigurationSpec { Name = "rc+drr", Scheduler = "drr", DeadlineMs = deadlineMs },
            ],
        };
        for (var i = 0; i + 1 < depth; i++)
        {
            scenario.Routes.Add(new RouteSpec
            {
                From = services[i].Name,
                To = services[i + 1].Name,
                Strategy = random.Next(2) == 0 ? RoutingStrategies.RoundRobin : RoutingStrategies.Random,
            });
        }

        // Requests/s of tenant t's cost that the bottleneck serves; the compliant tenants split `load` of it.
        var weightedCost = 0.0;
        for (var t = 0; t < tenants; t++)
        {
            weightedCost += weights[t] * costs[t];
        }

        var names = new List<string>();
        var costOf = new Dictionary<string, double>(StringComparer.Ordinal);
        for (var t = 0; t < tenants; t++)
        {
            var name = "t" + (t + 1).ToString(CultureInfo.InvariantCulture);
            names.Add(name);
            costOf[name] = costs[t];
            scenario.Workflows.Add(Workflow(name, services, meanMs, costs[t]));
            var rate = load * capacity[bottleneckIndex] * weights[t] / weightedCost;
            scenario.Workloads.Add(new WorkloadSpec { Workflow = name, RatePerSecond = Round(rate) });
        }

        string? aggressor = null;
        string? bursty = null;
        var factor = 0.0;
        if (loadKind == GeneratedLoadKinds.Aggressor)
        {
            // Fair share: the bottleneck's capacity split evenly over every tenant, the aggressor included.
            aggressor = "aggressor";
            factor = 2 + (random.NextDouble() * 8);
            var aggressorCost = 0.5 + (random.NextDouble() * 1.5);
            costOf[aggressor] = aggressorCost;
            scenario.Workflows.Add(Workflow(aggressor, services, meanMs, aggressorCost));
            var share = capacity[bottleneckIndex] / aggressorCost / (tenants + 1);
            scenario.Workloads.Add(new WorkloadSpec { Workflow = aggressor, RatePerSecond = Round(factor * share) });

            // Each compliant tenant stays within its fair share, so max-min fairness owes it everything it offers.
            for (var t = 0; t < tenants; t++)
            {
                var fair = capacity[bottleneckIndex] / costs[t] / (tenants + 1);
                scenario.Workloads[t].RatePerSecond = Round(Math.Min(scenario.Workloads[t].RatePerSecond, 0.8 * fair));
            }
        }
        else if (loadKind == GeneratedLoadKinds.Bursty)
        {
            // One more tenant, on for 2 s in every 10 at 5x its average; at its peak the total stays within capacity.
            bursty = "bursty";
            var average = (0.95 - load) / 5 * capacity[bottleneckIndex];
            costOf[bursty] = 1;
            scenario.Workflows.Add(Workflow(bursty, services, meanMs, 1));
            scenario.Workloads.Add(new WorkloadSpec
            {
                Workflow = bursty,
                Kind = WorkloadKinds.OnOff,
                RatePerSecond = Round(5 * average),
                OnSeconds = 2,
                OffSeconds = 8,
                StartSeconds = 1 + random.Next(8),
            });
            names.Add(bursty);
        }

        var servicesText = string.Join(" -> ", services.Select(s => FormattableString.Invariant(
            $"{s.Name} x{s.Instances} ({s.Permits} {s.Kind}, fan-out {s.FanOut}{(s.InParallel ? string.Empty : " sequential")})")));
        scenario.Description = FormattableString.Invariant(
            $"Generated from seed {seed} ({loadKind}): {servicesText}; bottleneck {services[bottleneckIndex].Name} at {load:P0} of its capacity with {tenants} tenant(s); unloaded latency up to {unloadedMs:F0} ms, deadline {deadlineMs:F0} ms")
            + (aggressor is null ? "." : FormattableString.Invariant($", aggressor at {factor:F1}x its fair share."));
        return new GeneratedScenario
        {
            Scenario = scenario,
            Seed = seed,
            LoadKind = loadKind,
            BottleneckService = services[bottleneckIndex].Name,
            Load = load,
            CapacityPerSecond = capacity[bottleneckIndex],
            UnloadedLatencyMs = unloadedMs,
            DeadlineMs = deadlineMs,
            Aggressor = aggressor,
            AggressorFactor = factor,
            Bursty = bursty,
            Compliant = names,
            Costs = costOf,
        };
    }

    /// <summary>
    /// The mean latency of a unit-cost request from service <paramref name="i"/> down on an idle graph: work and calls
    /// add up unless they run side by side; n parallel calls wait for the slowest, about H_n times one call's mean
    /// (the maximum of n exponentials), and n sequential calls take n times.
    /// </summary>
    private static double CriticalPathMs(List<ServiceShape> services, double[] meanMs, int i)
    {
        var shape = services[i];
        if (i == services.Count - 1)
        {
            return meanMs[i];
        }

        var call = CriticalPathMs(services, meanMs, i + 1);
        var harmonic = 0.0;
        for (var n = 1; n <= shape.FanOut; n++)
        {
            harmonic += 1.0 / n;
        }

        var calls = shape.InParallel ? call * harmonic : call * shape.FanOut;
        return shape.Placement == 2 ? Math.Max(meanMs[i], calls) : meanMs[i] + calls;
    }

    /// <summary>
    /// The mean service time of the reference tenant (cost 1) at each service, so that the reference rate of unit
    /// cost uses the service's utilisation; bounded to keep runs short and service times plausible.
    /// </summary>
    private static double[] MeanServiceTimes(List<ServiceShape> services, double referenceRate) =>
        services.Select(s => Math.Clamp(s.Utilization * s.Instances * s.Permits / (referenceRate * s.CallsPerRequest) * 1000, 0.05, 500)).ToArray();

    private static int PickFanOut(Random random, int callsSoFar)
    {
        var fanOut = random.Next(3) == 0 ? random.Next(2, 17) : 1;
        return callsSoFar * fanOut > MaxFanOutProduct ? 1 : fanOut;
    }

    private static double Round(double rate) => Math.Max(0.5, Math.Round(rate, 2));

    private static ServiceSpec ToService(ServiceShape shape) => new()
    {
        Name = shape.Name,
        Instances = shape.Instances,
        Resources =
        [
            new ResourceSpec { Name = "threads", Kind = ResourceKinds.ThreadPool, Capacity = 4096 },
            new ResourceSpec { Name = "connections", Kind = ResourceKinds.ConnectionPool, Capacity = 4096 },
            new ResourceSpec { Name = "work", Kind = shape.Kind, Capacity = shape.Permits },
        ],
    };

    private static WorkflowSpec Workflow(string name, List<ServiceShape> services, double[] meanMs, double cost) => new()
    {
        Name = name,
        Stages = Stages(services, meanMs, cost, 0),
    };

    /// <summary>The stages service <paramref name="i"/> runs: its own work and, but for the last, its calls to the next.</summary>
    private static List<StageSpec> Stages(List<ServiceShape> services, double[] meanMs, double cost, int i)
    {
        var shape = services[i];
        var work = new StageSpec
        {
            Use = "work",
            ServiceTime = new DistributionSpec { Distribution = shape.Distribution, MeanMs = Math.Round(meanMs[i] * cost, 3), Cv = Math.Round(shape.Cv, 2) },
        };
        if (i == services.Count - 1)
        {
            return [work];
        }

        var call = new StageSpec
        {
            Call = services[i + 1].Name,
            Count = shape.FanOut,
            InParallel = shape.InParallel,
            Stages = Stages(services, meanMs, cost, i + 1),
        };
        return shape.Placement switch
        {
            0 => [work, call],
            1 => [call, work],
            _ => [new StageSpec { Parallel = [[work], [call]] }],
        };
    }

    private sealed record ServiceShape(
        string Name,
        int Instances,
        int Permits,
        string Kind,
        string Distribution,
        double Cv,
        int CallsPerRequest,
        int FanOut,
        bool InParallel,
        int Placement,
        double Utilization);
}
