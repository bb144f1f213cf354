// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Workloads;
using Cicero.Workflows;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>A validated scenario turned into indexed definitions: services, routes and workflow plans.</summary>
internal sealed class CompiledScenario
{
    private CompiledScenario(ServiceDef[] services, RouteDef?[,] routes, WorkflowDef[] workflows)
    {
        Services = services;
        Routes = routes;
        Workflows = workflows;
    }

    public ServiceDef[] Services { get; }

    /// <summary>Gets the route of each (caller, callee) pair that has one; others pick at random.</summary>
    public RouteDef?[,] Routes { get; }

    public WorkflowDef[] Workflows { get; }

    public static CompiledScenario Compile(ScenarioSpec scenario)
    {
        var services = new ServiceDef[scenario.Services!.Count];
        var byName = new Dictionary<string, ServiceDef>(StringComparer.Ordinal);
        for (var i = 0; i < services.Length; i++)
        {
            services[i] = new ServiceDef(i, scenario.Services[i]);
            byName[services[i].Name] = services[i];
        }

        // Placement hashes the table's name, so workflows sharing a table share its instances.
        var tables = scenario.Workflows!.Select(w => w.Table ?? w.Name!).ToArray();
        var routes = new RouteDef?[services.Length, services.Length];
        foreach (var route in scenario.Routes ?? [])
        {
            var from = byName[route.From!];
            var to = byName[route.To!];
            routes[from.Index, to.Index] = new RouteDef(route, to, tables, scenario.Workflows!.Select(w => w.Partitions).ToArray());
        }

        var workflows = new WorkflowDef[scenario.Workflows!.Count];
        for (var w = 0; w < workflows.Length; w++)
        {
            var spec = scenario.Workflows[w];
            var entry = byName[spec.Entry ?? scenario.EntryService];
            var body = CompileStages(spec.Stages!, entry, byName, routes);
            workflows[w] = new WorkflowDef(w, spec, entry, body);
        }

        return new CompiledScenario(services, routes, workflows);
    }

    private static PlanStep[] CompileStages(IList<StageSpec> stages, ServiceDef service, Dictionary<string, ServiceDef> byName, RouteDef?[,] routes)
    {
        var steps = new List<PlanStep>();
        foreach (var stage in stages)
        {
            if (stage.Use is not null)
            {
                steps.Add(new UseStep(service.ResourceIndex(stage.Use), TimeDistribution.From(stage.ServiceTime!)));
            }
            else if (stage.Call is not null)
            {
                var target = byName[stage.Call];
                if (!service.Callees.Contains(target))
                {
                    service.Callees.Add(target);
                }

                var body = CompileStages(stage.Stages ?? [], target, byName, routes);
                var route = routes[service.Index, target.Index];
                if (stage.InParallel || stage.Count == 1)
                {
                    steps.Add(new CallStep(target, route, stage.Count, stage.Replicas, body));
                }
                else
                {
                    // Sequential calls are the same call repeated in the enclosing sequence.
                    for (var c = 0; c < stage.Count; c++)
                    {
                        steps.Add(new CallStep(target, route, 1, stage.Replicas, body));
                    }
                }
            }
            else
            {
                var branches = stage.Parallel!.Select(b => CompileStages(b, service, byName, routes)).ToArray();
                steps.Add(new ParallelStep(branches));
            }
        }

        return [.. steps];
    }
}

/// <summary>A service: its instances' count and resources, and the services its instances call.</summary>
internal sealed class ServiceDef
{
    public ServiceDef(int index, ServiceSpec spec)
    {
        Index = index;
        Name = spec.Name!;
        Instances = spec.Instances;
        Background = spec.Background;
        Resources = [.. spec.Resources ?? []];
        for (var r = 0; r < Resources.Length; r++)
        {
            if (Resources[r].Kind == ResourceKinds.ThreadPool)
            {
                ThreadPool = r;
            }
            else if (Resources[r].Kind == ResourceKinds.ConnectionPool)
            {
                ConnectionPool = r;
            }
        }
    }

    public int Index { get; }

    public string Name { get; }

    public int Instances { get; }

    /// <summary>Gets the instances' background activity model, if any.</summary>
    public BackgroundSpec? Background { get; }

    public ResourceSpec[] Resources { get; }

    public int ThreadPool { get; } = -1;

    public int ConnectionPool { get; } = -1;

    /// <summary>Gets the services some workflow calls from here, for rate adaptation's downstream lists.</summary>
    public List<ServiceDef> Callees { get; } = [];

    public int ResourceIndex(string name) => Array.FindIndex(Resources, r => r.Name == name);
}

/// <summary>A route with its placement precomputed: partition owners on the ring, or block replica groups.</summary>
internal sealed class RouteDef
{
    public RouteDef(RouteSpec spec, ServiceDef target, string[] tables, int[] partitions)
    {
        Strategy = spec.Strategy;
        Replication = Math.Max(1, spec.Replication);
        BlocksPerPartition = spec.BlocksPerPartition;
        ReplicaSelector = spec.ReplicaSelector;
        if (Strategy == RoutingStrategies.ConsistentHash)
        {
            var ring = new ConsistentHashRing(target.Name, target.Instances, spec.VirtualNodes);
            PartitionOwners = new int[tables.Length][];
            for (var w = 0; w < tables.Length; w++)
            {
                PartitionOwners[w] = new int[partitions[w]];
                for (var p = 0; p < partitions[w]; p++)
                {
                    PartitionOwners[w][p] = ring.Owner(StableHash.Of(tables[w], p));
                }
            }
        }
        else if (Strategy == RoutingStrategies.Blocks)
        {
            // Block b of partition p starts its replica group at a hashed instance; copies go to the next ones.
            BlockGroupStarts = new int[tables.Length][];
            for (var w = 0; w < tables.Length; w++)
            {
                BlockGroupStarts[w] = new int[partitions[w] * BlocksPerPartition];
                for (var b = 0; b < BlockGroupStarts[w].Length; b++)
                {
                    BlockGroupStarts[w][b] = (int)(StableHash.Of(tables[w], b / BlocksPerPartition, (b % BlocksPerPartition) + 1) % (ulong)target.Instances);
                }
            }
        }
    }

    public string Strategy { get; }

    public int Replication { get; }

    public int BlocksPerPartition { get; }

    public string ReplicaSelector { get; }

    public int[][]? PartitionOwners { get; }

    public int[][]? BlockGroupStarts { get; }
}

/// <summary>A workflow: its Cicero id, entry service and compiled plan.</summary>
internal sealed class WorkflowDef(int index, WorkflowSpec spec, ServiceDef entry, PlanStep[] body)
{
    public int Index { get; } = index;

    public string Name { get; } = spec.Name!;

    public WorkflowId Id { get; } = new(spec.Name!);

    public ServiceDef Entry { get; } = entry;

    public int Partitions { get; } = spec.Partitions;

    public double? DeadlineMs { get; } = spec.DeadlineMs;

    /// <summary>Gets the workflow's latency SLO for cake-slo, if any.</summary>
    public double? LatencySloMs { get; } = spec.LatencySloMs;

    public PlanStep[] Body { get; } = body;
}
