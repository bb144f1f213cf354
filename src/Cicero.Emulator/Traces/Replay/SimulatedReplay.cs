// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Policies.Registration;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>
/// Replays a <see cref="TraceReplayPlan"/> in the simulated runner (<see cref="TopologySimulation"/>): open loop at the
/// recorded arrivals or closed loop with N clients in trace order, each request with its own fan-out and service
/// times (<see cref="TraceReplayRequest.Costs"/>) and optionally its own deadline.
/// </summary>
/// <remarks>
/// The plan's requests are pulled through one enumerator, one at a time, so a replay's memory does not grow with the
/// trace (the run's result still keeps each measured latency, as every run does). Every request counts as measured
/// (no warm-up); the run ends when the trace is exhausted and every request has its outcome. Deterministic for a seed.
/// Per-request overrides: the number of calls to the block service (<c>bs</c>) is the request's fan-out (0 skips
/// the call), and the <c>cpu</c>, <c>compute</c> and <c>disk</c> stages take the request's Auth, PS and BS times.
/// A request whose workflow's DAG has no BS call (its workflow's mean fan-out rounds to 0) is served at the PS.
/// </remarks>
public static class SimulatedReplay
{
    /// <summary>Runs one replay.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="configuration">The configuration (rate control, scheduler, policies).</param>
    /// <param name="options">The options; defaults (open loop, recorded times) when omitted.</param>
    /// <param name="catalog">The policies names resolve against; the default catalog when null.</param>
    /// <param name="cancellationToken">Stops the replay (Ctrl-C): no request is offered after it, those in flight reach their outcomes, and the result has <see cref="TopologyRunResult.Interrupted"/> set.</param>
    /// <returns>The run's results; every request offered is in them (every request of the trace unless stopped).</returns>
    /// <exception cref="ScenarioValidationException">The plan's scenario or the configuration is invalid.</exception>
    /// <exception cref="ConservationException">A request never reached an outcome.</exception>
    public static TopologyRunResult Run(
        TraceReplayPlan plan, ConfigurationSpec configuration, SimulatedReplayOptions? options = null, PolicyCatalog? catalog = null, CancellationToken cancellationToken = default) =>
        RunCore(plan, configuration, options ?? new SimulatedReplayOptions(), catalog, isolationGapSeconds: 0, observer: null, cancellationToken);

    /// <summary>Runs one replay, optionally with requests spaced apart (isolation) and an observer of each outcome.</summary>
    internal static TopologyRunResult RunCore(
        TraceReplayPlan plan,
        ConfigurationSpec configuration,
        SimulatedReplayOptions options,
        PolicyCatalog? catalog,
        double isolationGapSeconds,
        Action<SimRequest, bool, double>? observer,
        CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegative(options.ClosedLoopClients, nameof(options));
        if (!(options.SpeedUp > 0 && double.IsFinite(options.SpeedUp)))
        {
            throw new ArgumentException($"SpeedUp must be a positive number, was {options.SpeedUp}.", nameof(options));
        }

        var scenario = plan.Scenario;
        if (options.Seed is { } seed && seed != scenario.Seed)
        {
            scenario = WithSeed(scenario, seed);
        }

        using var driver = new TraceReplayDriver([.. plan.Workflows.Select(w => w.Name)], plan.Requests, options.ClosedLoopClients, options.SpeedUp, isolationGapSeconds, options.DeadlineMs)
        {
            Observer = observer,
            SoftDeadlines = options.SoftDeadlines,
            Estimate = options.EstimatedTotal,
            Progress = options.Progress,
        };
        var simulation = new TopologySimulation(scenario, configuration, catalog, driver);
        using var registration = cancellationToken.Register(simulation.Stop);
        return simulation.Run();
    }

    private static ScenarioSpec WithSeed(ScenarioSpec s, int seed) => new()
    {
        Name = s.Name,
        Description = s.Description,
        Seed = seed,
        DurationSeconds = s.DurationSeconds,
        WarmUpSeconds = s.WarmUpSeconds,
        EntryService = s.EntryService,
        Network = s.Network,
        Services = s.Services,
        Routes = s.Routes,
        Workflows = s.Workflows,
        Workloads = s.Workloads,
        Configurations = s.Configurations,
        Faults = s.Faults,
    };
}
