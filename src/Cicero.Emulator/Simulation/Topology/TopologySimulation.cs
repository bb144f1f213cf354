// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Workloads;
using Cicero.Policies.Registration;
using Cicero.ReplicaSelection;
using Cicero.Time;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Runs a scenario under one configuration as a discrete-event simulation on a <see cref="VirtualTimeProvider"/>: every
/// instance has its own Cicero objects (admission, rate adaptation, resource semaphores with the configured scheduler),
/// requests flow through the services as their workflow's plan says, network hops, service times, RPC timeouts and
/// rate-exchange rounds are events.
/// </summary>
/// <remarks>
/// <para>
/// Single-threaded and repeatable bit for bit: every event is a callback of the one virtual clock, Core's engines run
/// with inline continuations, and every random draw comes from a stream seeded from the scenario's seed (one per
/// workload, one for service times, one for routing), drawn in event order. No async/await, no threads.
/// </para>
/// <para>
/// Each request ends exactly once: completed, dropped with a reason, or failed (a timeout). The client gives up after
/// the RPC timeout, so every request has an outcome by then; the run ends when all have one, and fails with a
/// <see cref="ConservationException"/> if the counts do not add up.
/// </para>
/// </remarks>
public sealed partial class TopologySimulation
{
    private readonly ScenarioSpec _scenario;
    private readonly ConfigurationSpec _configuration;
    private readonly Random _serviceRandom;
    private readonly Random _selectorSeeds;
    private readonly RunMetrics _metrics;
    private readonly RequestTimeouts _timeouts = new();
    private readonly List<SimInstance> _cakeInstances = [];
    private readonly long _durationTicks;
    private bool _stopRequested;
    private readonly TraceReplayDriver? _replay;
    private readonly WorkloadDriver _workloads;
    private ReplayLoad? _replayLoad;
    private long _nextRequestId;
    private long _inFlight;
    private bool _ran;

    /// <summary>Creates a run of <paramref name="scenario"/> under <paramref name="configuration"/>.</summary>
    /// <param name="scenario">A scenario, as loaded by <see cref="ScenarioLoader"/>; validated again here.</param>
    /// <param name="configuration">The configuration; usually one of the scenario's, but any valid one will do.</param>
    /// <param name="catalog">The policies names resolve against; <see cref="PolicyCatalog.Default"/> when <see langword="null"/>.</param>
    /// <exception cref="ScenarioValidationException">The scenario or the configuration is invalid.</exception>
    public TopologySimulation(ScenarioSpec scenario, ConfigurationSpec configuration, PolicyCatalog? catalog = null)
        : this(scenario, configuration, catalog, replay: null)
    {
    }

    /// <summary>Creates a run driven by a trace replay instead of the scenario's workloads (which may then be empty).</summary>
    internal TopologySimulation(ScenarioSpec scenario, ConfigurationSpec configuration, PolicyCatalog? catalog, TraceReplayDriver? replay)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(configuration);
        Catalog = configuration.Policies(catalog ?? PolicyCatalog.Default);
        _replay = replay;
        var errors = ScenarioLoader.Validate(scenario, Catalog).ToList();
        if (replay is not null)
        {
            // A replay brings its own requests and runs the configuration given; the scenario may list neither.
            errors.RemoveAll(e => e.Path is "workloads" or "configurations");
        }

        errors.AddRange(new ScenarioValidator(Catalog).ValidateConfiguration(configuration, "configuration", scenario));
        if (errors.Count > 0)
        {
            throw new ScenarioValidationException(errors, scenario.Name);
        }

        _scenario = scenario;
        _configuration = configuration;
        Compiled = CompiledScenario.Compile(scenario);
        var network = scenario.Network ?? new NetworkSpec();
        NetworkTicks = (long)Math.Round(network.OneWayDelayMs * TimeSpan.TicksPerMillisecond);
        RpcTimeoutTicks = (long)Math.Round(network.RpcTimeoutMs * TimeSpan.TicksPerMillisecond);
        _durationTicks = ToTicks(scenario.DurationSeconds);
        WindowStartTicks = ToTicks(scenario.WarmUpSeconds);
        WindowEndTicks = _durationTicks;
        RateExchange = new RateExchange(this, (long)Math.Round(configuration.ControlIntervalMs * TimeSpan.TicksPerMillisecond), _durationTicks, replay);
        _workloads = new WorkloadDriver(this, scenario, _durationTicks);
        DefaultDeadlineMs = configuration.DeadlineMs;
        _serviceRandom = new Random(SeedStreams.Derive(scenario.Seed, SeedStreams.ServiceTimes));
        RoutingRandom = new Random(SeedStreams.Derive(scenario.Seed, SeedStreams.Routing));
        _selectorSeeds = new Random(SeedStreams.Derive(scenario.Seed, SeedStreams.Selectors));
        // A replay may be a day of trace: its latencies go into histograms, so memory does not grow with its length.
        _metrics = new RunMetrics(Compiled.Workflows, histograms: replay is not null);
        Instances = new SimInstance[Compiled.Services.Length][];
        for (var s = 0; s < Compiled.Services.Length; s++)
        {
            var service = Compiled.Services[s];
            Instances[s] = new SimInstance[service.Instances];
            for (var i = 0; i < service.Instances; i++)
            {
                Instances[s][i] = new SimInstance(this, service, i, configuration, Catalog);
                if (Instances[s][i].Cake is not null)
                {
                    _cakeInstances.Add(Instances[s][i]);
                }
            }
        }
    }

    /// <summary>Gets the virtual time the run ended at, once it has run.</summary>
    public TimeSpan Elapsed => Clock.Elapsed;

    /// <summary>Gets the number of events run so far.</summary>
    public long Events => Clock.CallbacksRun;

    internal VirtualTimeProvider Clock { get; } = new();

    internal long Now => Clock.GetTimestamp();

    internal PolicyCatalog Catalog { get; }

    internal CompiledScenario Compiled { get; }

    internal SimInstance[][] Instances { get; }

    internal Random RoutingRandom { get; }

    internal long NetworkTicks { get; }

    internal long RpcTimeoutTicks { get; }

    internal long WindowStartTicks { get; }

    internal long WindowEndTicks { get; private set; }

    internal RateExchange RateExchange { get; }

    /// <summary>Gets the next open-loop arrival of a replay while nothing is in flight, else null (<see cref="IdleGap.Arrival"/>).</summary>
    internal long? NextArrivalWhileIdle => IdleGap.Arrival(_replay, _inFlight, Stopped);

    /// <summary>Gets a value indicating whether no more requests are offered: <see cref="Stop"/> was called and the run saw it.</summary>
    internal bool Stopped { get; private set; }

    /// <summary>
    /// Asks a running simulation to stop (Ctrl-C), from any thread: it offers no more requests, lets those in flight reach
    /// their outcomes (at most the RPC timeout of virtual time, a fraction of a second of wall time) and returns a result
    /// over what ran, with <see cref="TopologyRunResult.Interrupted"/> set.
    /// </summary>
    public void Stop() => Volatile.Write(ref _stopRequested, true);

    internal double? DefaultDeadlineMs { get; }

    /// <summary>Gets or sets a test hook: when it returns true for a request id, the request's outcome is lost, as a bug would lose it.</summary>
    internal Func<long, bool>? LeakHook { get; set; }

    /// <summary>
    /// Gets or sets what hears of every completed request: its workflow, when it completed (seconds of simulated time) and
    /// its latency in ms. The reproduction reads per-interval percentiles from it, which the per-second bins do not keep.
    /// </summary>
    internal Action<string, double, double>? CompletionObserver { get; set; }

    /// <summary>Runs every configuration of a scenario, one after the other, with the scenario's seed.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="catalog">The policies names resolve against; the default catalog when <see langword="null"/>.</param>
    /// <returns>One result per configuration, in the scenario's order.</returns>
    /// <exception cref="ConservationException">A run lost a request.</exception>
    public static IReadOnlyList<TopologyRunResult> RunAll(ScenarioSpec scenario, PolicyCatalog? catalog = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var results = new List<TopologyRunResult>();
        foreach (var configuration in scenario.Configurations ?? [])
        {
            results.Add(new TopologySimulation(scenario, configuration, catalog).Run());
        }

        return results;
    }

    /// <summary>Runs the simulation until every request offered has an outcome.</summary>
    /// <returns>The results over the measured window.</returns>
    /// <exception cref="InvalidOperationException">The simulation already ran.</exception>
    /// <exception cref="ConservationException">A request never reached an outcome.</exception>
    public TopologyRunResult Run()
    {
        if (_ran)
        {
            throw new InvalidOperationException("A simulation runs once; create another for another run.");
        }

        _ran = true;
        RateExchange.Start(_configuration.RateControl);
        StartBackgroundActivity();
        FaultSchedule.Schedule(this, _scenario.Faults);
        if (_replay is null)
        {
            _workloads.Start();
        }
        else
        {
            _replayLoad = new ReplayLoad(this, _replay, _scenario.Seed);
            _replayLoad.Start();
        }

        if (_configuration.RateControl)
        {
            RateExchange.StartSampling();
        }

        // Past the duration only outcomes are left; the client timeout bounds how long they can take.
        // A replay ends when the trace is exhausted and every request has its outcome, however long that takes.
        var limit = _replay is null ? _durationTicks + RpcTimeoutTicks + (4 * NetworkTicks) + TimeSpan.TicksPerSecond : long.MaxValue;
        while (Clock.TryRunNext(limit))
        {
            if (!Stopped && Volatile.Read(ref _stopRequested))
            {
                // From now on nothing is offered; the measured window ends here.
                Stopped = true;
                WindowEndTicks = Math.Max(WindowStartTicks + 1, Math.Min(WindowEndTicks, Now));
            }

            if (_inFlight == 0 && (Stopped || (_replay is null ? Now >= _durationTicks : _replay.Exhausted)))
            {
                break;
            }
        }

        if (_replay is not null)
        {
            // A replay measures its whole run: its length depends on the speed-up or the clients, not on the trace's span.
            WindowEndTicks = Math.Max(WindowStartTicks + 1, Now);
        }

        return BuildResult();
    }

    /// <summary>Creates one caller instance's replica selector (<see cref="ScenarioReplicaSelectors"/>).</summary>
    internal IReplicaSelector CreateReplicaSelector(string name, int callers) =>
        ScenarioReplicaSelectors.Factory(Catalog, _configuration, name, callers, _selectorSeeds.Next).Create(Clock.TimestampFrequency);

    internal long SampleTicks(TimeDistribution distribution) =>
        Math.Max(1, (long)Math.Round(distribution.SampleSeconds(_serviceRandom) * TimeSpan.TicksPerSecond));

    internal void RecordAdmitted(SimRequest request) => _metrics.Admitted(request);

    /// <summary>Gives a request its one outcome; later outcomes (a late reply after the client gave up) are ignored.</summary>
    internal void Finish(SimRequest request, Outcome outcome)
    {
        if (request.Finished)
        {
            return;
        }

        _timeouts.Finish(request);
        if (LeakHook?.Invoke(request.Id) == true)
        {
            return;
        }

        _inFlight--;
        _metrics.Outcome(request, outcome, Now, Second(Now));
        // The entry learns what its caller got, as a gRPC entry point's interceptor does (decision 0011, ninth amendment):
        // a result, or a drop or timeout; a replica down (no replica, unavailable) says nothing of load.
        if (request.AdmittedBy is { } entry && (outcome.IsOk || outcome.Kind == OutcomeKind.Dropped || outcome.Reason == Outcome.Timeout))
        {
            entry.Runtime.RecordEntryOutcome(request.Context!, request.AdmittedAt, outcome.IsOk);
        }
        if (outcome.IsOk)
        {
            CompletionObserver?.Invoke(request.Workflow.Name, (double)Now / TimeSpan.TicksPerSecond, (Now - request.ArrivedAt) / (double)TimeSpan.TicksPerMillisecond);
        }
        if (outcome.IsOk && request.Workflow.LatencySloMs is not null && _cakeInstances.Count > 0)
        {
            // Cake's second level is one scheduler for the system: every disk's controller sees the client's latencies.
            var latency = TimeSpan.FromTicks(Now - request.ArrivedAt);
            foreach (var instance in _cakeInstances)
            {
                instance.Cake!.RecordLatency(instance.Registry.Resolve(request.Workflow.Id), latency);
            }
        }

        if (request.Client is { } client)
        {
            _workloads.ClientDone(client);
        }

        _replayLoad?.Done(request, outcome);
    }

    /// <summary>Offers a workload's request: entry instance and partition come from the workload's own stream, so every configuration sees the same load.</summary>
    internal void Offer(WorkflowDef workflow, Random random, ClosedLoopClient? client)
    {
        var now = Now;
        var entries = Instances[workflow.Entry.Index];
        var entry = entries[random.Next(entries.Length)];
        var partition = random.Next(workflow.Partitions);
        Launch(entry, new SimRequest(this, NextRequestId(), workflow, partition, now, now >= WindowStartTicks && now < WindowEndTicks, client));
    }

    internal long NextRequestId() => ++_nextRequestId;

    /// <summary>Starts an offered request at its entry instance, counted and with the client's timeout running.</summary>
    internal void Launch(SimInstance entry, SimRequest request)
    {
        var now = Now;
        _inFlight++;
        _metrics.Offered(request, Second(now));
        _timeouts.Add(request, now + RpcTimeoutTicks);
        new EntryFrame(entry, request).Start();
    }

    internal static long ToTicks(double seconds) => (long)Math.Round(seconds * TimeSpan.TicksPerSecond);

    private static int Second(long ticks) => (int)(ticks / TimeSpan.TicksPerSecond);

    private void StartBackgroundActivity()
    {
        foreach (var service in Compiled.Services)
        {
            if (service.Background is not null)
            {
                new BackgroundActivity(this, service, _scenario.Seed, _durationTicks + RpcTimeoutTicks).Start();
            }
        }
    }
}
