// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Emulator.Scenarios;
using Cicero.Model;
using Cicero.Policies.RateLimiting;
using Cicero.Policies.Registration;
using Cicero.Policies.Scheduling;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Runtime;
using Cicero.Workflows;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// One simulated process with its own Cicero runtime (workflow registry, local model, admission controller, rate
/// adaptation controller and resource semaphores), built by <see cref="CiceroRuntimeBuilder"/> as hosting builds a live
/// one, on the simulation's virtual clock and with inline continuations.
/// </summary>
internal sealed class SimInstance
{
    private readonly int[] _roundRobin;
    private readonly ReplicaClient?[] _replicaClients;
    private readonly string? _replicaSelector;
    private readonly bool _serveLocally;

    public SimInstance(TopologySimulation simulation, ServiceDef service, int index, ConfigurationSpec configuration, PolicyCatalog catalog)
    {
        Simulation = simulation;
        Service = service;
        Index = index;
        Id = service.Name + "-" + index.ToString(CultureInfo.InvariantCulture);
        var interval = TimeSpan.FromMilliseconds(configuration.ControlIntervalMs);
        var builder = new CiceroRuntimeBuilder
        {
            TimeProvider = simulation.Clock,
            DropPolicy = catalog.GetDropPolicy(configuration.DropPolicy).Create,
        };
        builder.Options.Admission.RunContinuationsAsynchronously = false;
        builder.Options.Admission.QueueLimit = configuration.AdmissionQueueLimit;
        builder.Options.RateAdaptation.ProcessId = Id;
        builder.Options.RateAdaptation.Quantile = configuration.Quantile;
        builder.Options.RateAdaptation.Interval = interval;
        builder.Options.RateAdaptation.HoldTime = interval * 10 > TimeSpan.FromSeconds(1) ? interval * 10 : TimeSpan.FromSeconds(1);
        builder.Options.RateAdaptation.DownstreamHeadroom = configuration.DownstreamHeadroom;
        if (IsCake(configuration))
        {
            // Cake's controller gives batch workflows the share its SLO workflows leave; registering every workflow now
            // lets its first adjustment set them all, not only those this instance has seen by then.
            foreach (var workflow in simulation.Compiled.Workflows)
            {
                builder.Workflows.Add(workflow.Id);
            }
        }

        BusyTicks = new long[service.Resources.Length];
        var scheduler = catalog.GetScheduler(configuration.Scheduler);
        CakeShareScheduler? cakeDisk = null;
        var hasCakeDisk = false;
        foreach (var spec in service.Resources)
        {
            var options = new ResourceSemaphoreOptions
            {
                Name = spec.Name!,
                Capacity = spec.Capacity,
                MaxQueueLength = spec.MaxQueueLength,
                RunContinuationsAsynchronously = false,
                DropExpiredWaiters = configuration.DropExpiredSubtasks,
            };
            if (IsCake(configuration) && !hasCakeDisk && spec.Kind == ResourceKinds.Disk)
            {
                // Cake's second level drives the first disk's first-level scheduler, as it drives HDFS.
                builder.AddResource(options, context => cakeDisk = new CakeShareScheduler(new CakeShareOptions(), context.Registry));
                hasCakeDisk = true;
            }
            else
            {
                builder.AddResource(options, scheduler.Create);
            }
        }

        if (hasCakeDisk)
        {
            // The builder creates the rate-limit policy after the resources, so the disk's scheduler exists by then.
            builder.RateLimitPolicy = _ => Cake = new CakeSloController(CakeOptions(simulation.Compiled.Workflows, configuration), cakeDisk!);
        }
        else if (configuration.RateControl && !IsCake(configuration))
        {
            builder.RateLimitPolicy = catalog.GetRateLimitPolicy(configuration.RateLimitPolicy).Create;
        }

        // Under cake-slo, instances without a disk have nothing for Cake to drive and impose no limit (pass-through).
        Runtime = builder.Build();
        Resources = [.. service.Resources.Select(spec => Runtime.GetResource(spec.Name!))];

        _replicaSelector = configuration.ReplicaSelector;
        _serveLocally = configuration.ServeLocally;
        _roundRobin = new int[simulation.Compiled.Services.Length];
        _replicaClients = new ReplicaClient?[simulation.Compiled.Services.Length];
    }

    public TopologySimulation Simulation { get; }

    public ServiceDef Service { get; }

    public int Index { get; }

    public string Id { get; }

    /// <summary>Gets this process's runtime.</summary>
    public CiceroRuntime Runtime { get; }

    public WorkflowRegistry Registry => Runtime.Registry;

    public LocalModel Model => Runtime.Model;

    public AdmissionController Admission => Runtime.Admission;

    public RateAdaptationController RateAdaptation => Runtime.RateAdaptation;

    public ResourceSemaphore[] Resources { get; }

    /// <summary>Gets Cake's second-level controller of this instance's disk, under the cake-slo policy.</summary>
    public CakeSloController? Cake { get; private set; }

    /// <summary>Gets or sets a value indicating whether the instance is in a background period (slower service).</summary>
    public bool InBackground { get; set; }

    /// <summary>Gets the factor this instance's service times are multiplied by now.</summary>
    public double ServiceTimeFactor => (InBackground ? Service.Background!.Factor : 1) * FaultFactor;

    /// <summary>Gets or sets a value indicating whether the instance's process is dead (an injected <c>kill</c>).</summary>
    public bool IsDown { get; set; }

    /// <summary>Gets or sets the service-time factor of an injected <c>slow</c> fault; 1 without one.</summary>
    public double FaultFactor { get; set; } = 1;

    /// <summary>Gets or sets a value indicating whether rate-exchange replies to and from this instance are lost.</summary>
    public bool RateExchangeLost { get; set; }

    /// <summary>Gets the calls this instance is serving for callers, which a kill fails at once.</summary>
    public HashSet<RpcFrame> Serving { get; } = [];

    /// <summary>Gets, per resource, the permit-ticks held inside the measured window.</summary>
    public long[] BusyTicks { get; }

    /// <summary>Gets the sub-tasks waiting at all of this instance's resources (the queue C3 feedback reports).</summary>
    public int QueueLength
    {
        get
        {
            var total = 0;
            foreach (var resource in Resources)
            {
                total += resource.QueueLength;
            }

            return total;
        }
    }

    /// <summary>Starts a request here as an entry point, stamping the workflow's end-to-end estimates.</summary>
    public RequestContext StartRequest(WorkflowId workflow, TimeSpan? deadline) => Runtime.StartRequest(workflow, deadline);

    /// <summary>Feeds a finished request's time here into L and, at the entry, its totals into T.</summary>
    public void CompleteRequest(RequestContext context, long admittedAt, bool isEntryPoint) =>
        Runtime.CompleteRequest(context, TimeSpan.FromTicks(Simulation.Now - admittedAt), isEntryPoint);

    /// <summary>Releases a permit and adds the part of its hold inside the measured window to the resource's busy time.</summary>
    public void Release(int resource, SubtaskLease lease, long acquiredAt)
    {
        lease.Dispose();
        var from = Math.Max(acquiredAt, Simulation.WindowStartTicks);
        var to = Math.Min(Simulation.Now, Simulation.WindowEndTicks);
        if (to > from)
        {
            BusyTicks[resource] += to - from;
        }
    }

    public int NextRoundRobin(ServiceDef target)
    {
        var next = _roundRobin[target.Index];
        _roundRobin[target.Index] = (next + 1) % target.Instances;
        return next;
    }

    public ReplicaClient GetReplicaClient(ServiceDef target, RouteDef route)
    {
        if (_replicaClients[target.Index] is { } existing)
        {
            return existing;
        }

        // The local fast path applies when this instance is itself one of the callee's instances (a Cassandra-like ring).
        var local = _serveLocally && ReferenceEquals(target, Service) ? Index : -1;
        var selector = Simulation.CreateReplicaSelector(_replicaSelector ?? route.ReplicaSelector, Service.Instances);
        var client = new ReplicaClient(Simulation, selector, target, route.Replication, local);
        _replicaClients[target.Index] = client;
        return client;
    }

    private static bool IsCake(ConfigurationSpec configuration) =>
        string.Equals(configuration.RateLimitPolicy, RateLimitPolicies.CakeSlo, StringComparison.OrdinalIgnoreCase);

    private static CakeSloOptions CakeOptions(WorkflowDef[] workflows, ConfigurationSpec configuration)
    {
        var options = new CakeSloOptions
        {
            Percentile = configuration.SloPercentile,
            Interval = TimeSpan.FromSeconds(configuration.SloIntervalSeconds),
        };
        foreach (var workflow in workflows)
        {
            if (workflow.LatencySloMs is { } slo)
            {
                options.Slos[workflow.Name] = TimeSpan.FromMilliseconds(slo);
            }
        }

        return options;
    }
}
