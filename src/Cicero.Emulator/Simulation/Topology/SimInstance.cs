// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Emulator.Scenarios;
using Cicero.Measurement;
using Cicero.Model;
using Cicero.Policies.RateLimiting;
using Cicero.Policies.Registration;
using Cicero.Policies.Scheduling;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// One simulated process with its own Cicero objects: workflow registry, local model, admission controller, rate
/// adaptation controller and resource semaphores, all on the simulation's virtual clock and with inline continuations.
/// </summary>
/// <remarks>
/// Built from the parts rather than through <c>CiceroRuntime</c> because a rate-limit policy factory needs the
/// process's registry (<see cref="RateLimitPolicyContext"/>), which the runtime creates inside its constructor.
/// </remarks>
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
        var clock = simulation.Clock;
        var interval = TimeSpan.FromMilliseconds(configuration.ControlIntervalMs);
        Registry = new WorkflowRegistry();
        var modelOptions = new LocalModelOptions();
        Model = new LocalModel(Registry, clock, modelOptions);
        var admissionOptions = new AdmissionOptions { RunContinuationsAsynchronously = false, QueueLimit = configuration.AdmissionQueueLimit };
        Admission = new AdmissionController(Registry, catalog.GetDropPolicy(configuration.DropPolicy).Create(Registry), Model, clock, admissionOptions);
        if (IsCake(configuration))
        {
            // Cake's controller gives batch workflows the share its SLO workflows leave; registering every workflow now
            // lets its first adjustment set them all, not only those this instance has seen by then.
            foreach (var workflow in simulation.Compiled.Workflows)
            {
                Registry.Resolve(workflow.Id);
            }
        }

        Resources = new ResourceSemaphore[service.Resources.Length];
        BusyTicks = new long[service.Resources.Length];
        var scheduler = catalog.GetScheduler(configuration.Scheduler);
        CakeShareScheduler? cakeDisk = null;
        for (var r = 0; r < Resources.Length; r++)
        {
            var spec = service.Resources[r];
            var options = new ResourceSemaphoreOptions
            {
                Name = spec.Name!,
                Capacity = spec.Capacity,
                MaxQueueLength = spec.MaxQueueLength,
                RunContinuationsAsynchronously = false,
                DropExpiredWaiters = configuration.DropExpiredSubtasks,
            };
            ISubtaskScheduler resourceScheduler;
            if (IsCake(configuration) && cakeDisk is null && spec.Kind == ResourceKinds.Disk)
            {
                // Cake's second level drives the first disk's first-level scheduler, as it drives HDFS.
                cakeDisk = new CakeShareScheduler(new CakeShareOptions(), Registry);
                resourceScheduler = cakeDisk;
            }
            else
            {
                resourceScheduler = scheduler.Create(new SubtaskSchedulerContext(spec.Name!, spec.Capacity, clock.TimestampFrequency, Registry));
            }

            var resource = new ResourceSemaphore(options, Registry, resourceScheduler, clock, modelOptions);
            Model.AddResource(resource);
            Resources[r] = resource;
        }

        var rateOptions = new RateAdaptationOptions
        {
            ProcessId = Id,
            Quantile = configuration.Quantile,
            Interval = interval,
            HoldTime = interval * 10 > TimeSpan.FromSeconds(1) ? interval * 10 : TimeSpan.FromSeconds(1),
            DownstreamHeadroom = configuration.DownstreamHeadroom,
        };
        IRateLimitPolicy? policy = null;
        if (cakeDisk is not null)
        {
            Cake = new CakeSloController(CakeOptions(simulation.Compiled.Workflows, configuration), cakeDisk);
            policy = Cake;
        }
        else if (configuration.RateControl && !IsCake(configuration))
        {
            policy = catalog.GetRateLimitPolicy(configuration.RateLimitPolicy).Create(new RateLimitPolicyContext(Registry, interval));
        }

        // Under cake-slo, instances without a disk have nothing for Cake to drive and impose no limit (pass-through).
        RateAdaptation = new RateAdaptationController(rateOptions, Model, policy, source: null, Admission, clock);

        _replicaSelector = configuration.ReplicaSelector;
        _serveLocally = configuration.ServeLocally;
        _roundRobin = new int[simulation.Compiled.Services.Length];
        _replicaClients = new ReplicaClient?[simulation.Compiled.Services.Length];
    }

    public TopologySimulation Simulation { get; }

    public ServiceDef Service { get; }

    public int Index { get; }

    public string Id { get; }

    public WorkflowRegistry Registry { get; }

    public LocalModel Model { get; }

    public AdmissionController Admission { get; }

    public RateAdaptationController RateAdaptation { get; }

    public ResourceSemaphore[] Resources { get; }

    /// <summary>Gets Cake's second-level controller of this instance's disk, under the cake-slo policy.</summary>
    public CakeSloController? Cake { get; }

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

    /// <summary>Starts a request here as an entry point, stamping the workflow's end-to-end estimates (as CiceroRuntime does).</summary>
    public RequestContext StartRequest(WorkflowId workflow, TimeSpan? deadline)
    {
        var context = RequestContext.Start(workflow, Simulation.Clock, deadline);
        var estimate = Model.Get(Registry.Resolve(context)).EstimatedTotal;
        return estimate == default ? context : context.WithEstimatedTotal(estimate);
    }

    /// <summary>Feeds a finished request's time here into L and, at the entry, its totals into T (as CiceroRuntime does).</summary>
    public void CompleteRequest(RequestContext context, long admittedAt, bool isEntryPoint)
    {
        var model = Model.Get(Registry.Resolve(context));
        model.RecordCompletion(context, TimeSpan.FromTicks(Simulation.Now - admittedAt));
        if (isEntryPoint)
        {
            model.RecordEndToEndTotals(new ProgressDelta(context.ElapsedServiceTime, context.ElapsedLoad));
        }
    }

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
