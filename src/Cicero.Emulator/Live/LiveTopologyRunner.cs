// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Traces.Replay;
using Cicero.Emulator.Workloads;
using Cicero.Policies.RateLimiting;
using Cicero.Policies.Registration;

namespace Cicero.Emulator.Live;

/// <summary>
/// Runs a scenario live: every instance a real gRPC server (grpc-dotnet with Cicero.Grpc), emulated service times as
/// real delays, the workloads offered in real time by a load generator that calls the entry services. Results have the simulator's
/// shape, so the two runners compare directly.
/// </summary>
/// <remarks>
/// By default one process hosts every instance on 127.0.0.1 (ephemeral ports). With <see cref="LiveRunnerOptions"/>
/// the instances get addresses, so one process per instance (<see cref="HostAsync"/>) and a driver that hosts none
/// (<see cref="RunAsync"/>) can span processes or machines. Wall-clock bound: the scenario's duration plus the time the
/// last requests take (at most the RPC timeout). Not repeatable bit for bit; <see cref="TopologySimulation"/> is.
/// </remarks>
public sealed class LiveTopologyRunner
{
    private readonly ScenarioSpec _scenario;
    private readonly ConfigurationSpec _configuration;
    private readonly PolicyCatalog _catalog;
    private readonly LiveRunnerOptions _options;

    /// <summary>Creates the runner for one configuration of a scenario.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="configuration">The configuration to run.</param>
    /// <param name="catalog">Where policies are found by name; the default catalog when <see langword="null"/>.</param>
    /// <param name="options">Addresses and hosting; everything on loopback in this process when <see langword="null"/>.</param>
    /// <exception cref="ScenarioValidationException">The scenario, configuration or addresses are invalid.</exception>
    public LiveTopologyRunner(ScenarioSpec scenario, ConfigurationSpec configuration, PolicyCatalog? catalog = null, LiveRunnerOptions? options = null)
        : this(scenario, configuration, catalog, options, replay: false)
    {
    }

    private LiveTopologyRunner(ScenarioSpec scenario, ConfigurationSpec configuration, PolicyCatalog? catalog, LiveRunnerOptions? options, bool replay)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(configuration);
        _catalog = catalog ?? PolicyCatalog.Default;
        _options = options ?? new LiveRunnerOptions();

        // A replay plan's scenario has no workloads (the trace is the load) and no configurations (one is given).
        var errors = ScenarioLoader.Validate(scenario, _catalog)
            .Where(e => !replay || !(e.Path.StartsWith("workloads", StringComparison.Ordinal) || e.Path.StartsWith("configurations", StringComparison.Ordinal)))
            .ToList();
        errors.AddRange(new ScenarioValidator(_catalog).ValidateConfiguration(configuration, "configuration", scenario));
        errors.AddRange(ValidateLiveConfiguration(configuration, "configuration"));
        errors.AddRange(ValidateAddresses(scenario, _options));
        if (errors.Count > 0)
        {
            throw new ScenarioValidationException(errors, scenario.Name);
        }

        _scenario = scenario;
        _configuration = configuration;
    }

    /// <summary>Runs every configuration of a scenario live, one after another, all in this process.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="catalog">Where policies are found by name.</param>
    /// <param name="cancellationToken">Stops the runs.</param>
    /// <returns>One result per configuration.</returns>
    /// <exception cref="ScenarioValidationException">
    /// A configuration cannot run live (checked for all of them before the first starts, see <see cref="Validate"/>).
    /// </exception>
    public static async Task<IReadOnlyList<TopologyRunResult>> RunAllAsync(ScenarioSpec scenario, PolicyCatalog? catalog = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var errors = Validate(scenario, catalog);
        if (errors.Count > 0)
        {
            throw new ScenarioValidationException(errors, scenario.Name);
        }

        var results = new List<TopologyRunResult>();
        foreach (var configuration in scenario.Configurations ?? [])
        {
            results.Add(await new LiveTopologyRunner(scenario, configuration, catalog).RunAsync(cancellationToken).ConfigureAwait(false));
        }

        return results;
    }

    /// <summary>Starts the hosted instances, offers the workloads, waits for every request's outcome, and stops.</summary>
    /// <param name="cancellationToken">
    /// Stops the run: no request is offered after it, calls in flight get <see cref="LiveLoadGenerator.StopGrace"/> to end
    /// and are then cancelled; the result covers what ran and has <see cref="TopologyRunResult.Interrupted"/> set.
    /// </param>
    /// <returns>The results over the measured window (σ and utilisation only of the instances hosted here).</returns>
    /// <exception cref="ConservationException">A request ended without an outcome.</exception>
    public Task<TopologyRunResult> RunAsync(CancellationToken cancellationToken = default) =>
        RunCoreAsync(driver => driver.RunAsync(cancellationToken));

    /// <summary>
    /// Replays a trace live: every instance a real gRPC server, the plan's requests offered in trace order, open loop at
    /// their recorded times or closed loop with N clients. Service times come from the plan's per-workflow
    /// distributions (the simulated replay can also apply each request's own costs).
    /// </summary>
    /// <param name="plan">The replay plan (<see cref="TraceReplayPlanner"/>).</param>
    /// <param name="configuration">The Cicero configuration to run under.</param>
    /// <param name="options">Open or closed loop; open loop at the recorded times when <see langword="null"/>.</param>
    /// <param name="catalog">Where policies are found by name; the default catalog when <see langword="null"/>.</param>
    /// <param name="cancellationToken">Stops offering requests.</param>
    /// <returns>The results over the whole replay.</returns>
    /// <exception cref="ScenarioValidationException">The plan's scenario or the configuration is invalid.</exception>
    /// <exception cref="ConservationException">A request ended without an outcome.</exception>
    public static Task<TopologyRunResult> ReplayAsync(
        TraceReplayPlan plan, ConfigurationSpec configuration, LiveReplayOptions? options = null, PolicyCatalog? catalog = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(plan);
        options ??= new LiveReplayOptions();
        if (!(options.SpeedUp > 0 && double.IsFinite(options.SpeedUp)) || options.ClosedLoopClients is < 1)
        {
            throw new ArgumentException($"SpeedUp must be a positive number (was {options.SpeedUp}) and ClosedLoopClients at least 1 when set (was {options.ClosedLoopClients}).", nameof(options));
        }

        var runner = new LiveTopologyRunner(plan.Scenario, configuration, catalog, null, replay: true);
        return runner.RunCoreAsync(driver => driver.ReplayAsync(plan, options, cancellationToken));
    }

    private async Task<TopologyRunResult> RunCoreAsync(Func<LiveLoadGenerator, Task> drive)
    {
        var topology = new LiveTopology(_scenario, _configuration, _catalog);
        var (instances, addresses) = await StartAsync(topology).ConfigureAwait(false);
        try
        {
            await RemoteInstances.WaitUntilServingAsync(Remote(topology, instances, addresses), CancellationToken.None).ConfigureAwait(false);
            using var entries = new LiveEntryClients(topology.Compiled, addresses);
            using var driver = new LiveLoadGenerator(_scenario, topology, entries.Clients, instances);
            using var stopFaults = new CancellationTokenSource();
            using var monitor = LiveMonitor.Open(_options.MonitorPath);
            var monitoring = monitor?.RunAsync(instances, topology.Compiled.Workflows, stopFaults.Token) ?? Task.CompletedTask;
            monitor?.Write("driver", "start", 0);
            var faults = new LiveFaults(topology, _configuration, _scenario.Faults ?? [], instances, addresses, SeedStreams.Derive(_scenario.Seed, SeedStreams.Routing))
                .RunAsync(stopFaults.Token);
            await drive(driver).ConfigureAwait(false);
            await stopFaults.CancelAsync().ConfigureAwait(false);
            try
            {
                await faults.ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                // The run ended before a fault did; the instances stop below whatever state they are in.
            }

            await monitoring.ConfigureAwait(false);

            return driver.BuildResult(_configuration.Name ?? "configuration");
        }
        finally
        {
            await StopAsync(instances).ConfigureAwait(false);
        }
    }

    /// <summary>The instances other processes host that this one calls: every addressed instance not hosted here.</summary>
    private static IEnumerable<(string Name, Uri Address)> Remote(LiveTopology topology, List<LiveInstance?[]> instances, List<Uri?[]> addresses)
    {
        foreach (var service in topology.Compiled.Services)
        {
            for (var i = 0; i < service.Instances; i++)
            {
                if (instances[service.Index][i] is null && addresses[service.Index][i] is { } address)
                {
                    yield return (service.Name + "-" + i.ToString(CultureInfo.InvariantCulture), address);
                }
            }
        }
    }

    /// <summary>Hosts this process's instances (<see cref="LiveRunnerOptions.HostedInstances"/>) until cancelled.</summary>
    /// <param name="cancellationToken">Stops the instances.</param>
    /// <returns>Completes when the instances have stopped.</returns>
    public async Task HostAsync(CancellationToken cancellationToken)
    {
        var topology = new LiveTopology(_scenario, _configuration, _catalog);
        var (instances, _) = await StartAsync(topology).ConfigureAwait(false);
        using var monitor = LiveMonitor.Open(_options.MonitorPath);
        using var slow = LiveSlowSignal.Register(instances, _options.SlowFactorOnSignal);
        try
        {
            await (monitor?.RunAsync(instances, topology.Compiled.Workflows, cancellationToken) ?? Task.CompletedTask).ConfigureAwait(false);
            await Task.Delay(Timeout.InfiniteTimeSpan, TimeProvider.System, cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // Asked to stop.
        }
        finally
        {
            await StopAsync(instances).ConfigureAwait(false);
        }
    }

    private async Task<(List<LiveInstance?[]> Instances, List<Uri?[]> Addresses)> StartAsync(LiveTopology topology)
    {
        var compiled = topology.Compiled;
        var instances = new List<LiveInstance?[]>();
        var addresses = new List<Uri?[]>();
        var seed = SeedStreams.Derive(_scenario.Seed, SeedStreams.Routing);
        try
        {
            foreach (var service in compiled.Services)
            {
                var configured = _options.Addresses.TryGetValue(service.Name, out var list) ? list : null;
                var tier = new LiveInstance?[service.Instances];
                var tierAddresses = new Uri?[service.Instances];
                for (var i = 0; i < tier.Length; i++)
                {
                    var name = service.Name + "-" + i.ToString(CultureInfo.InvariantCulture);
                    var address = configured is null ? null : new Uri(configured[i]);
                    var hosted = _options.HostedInstances?.Contains(name) ?? address is null;
                    if (hosted)
                    {
                        tier[i] = new LiveInstance(topology, service, i, _configuration, seed + (service.Index * 1000) + i) { Ports = LivePorts.From(_options) };
                        await tier[i]!.StartAsync(address, _options.ListenHost).ConfigureAwait(false);
                        tierAddresses[i] = tier[i]!.Address;
                    }
                    else
                    {
                        // Null when neither hosted nor addressed: fine unless a hosted instance or the driver calls it.
                        tierAddresses[i] = address;
                    }
                }

                instances.Add(tier);
                addresses.Add(tierAddresses);
            }

            foreach (var tier in instances)
            {
                foreach (var instance in tier)
                {
                    instance?.Connect(addresses);
                }
            }

            return (instances, addresses);
        }
        catch
        {
            await StopAsync(instances).ConfigureAwait(false);
            throw;
        }
    }

    private static async Task StopAsync(List<LiveInstance?[]> instances)
    {
        // All at once: each waits a little for its last requests, and a stopped run must not wait that out 35 times.
        await Task.WhenAll(instances.SelectMany(static tier => tier).OfType<LiveInstance>().Select(static i => i.DisposeAsync().AsTask())).ConfigureAwait(false);
    }

    /// <summary>
    /// Checks that every configuration of <paramref name="scenario"/> can run live, so that a scenario the live runner
    /// cannot finish is refused before its first configuration runs rather than after it.
    /// </summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="catalog">Where policies are found by name.</param>
    /// <param name="options">The addresses (checked against the services) and the rest of the live options.</param>
    /// <returns>The problems, each with its path in the scenario; empty when it can run.</returns>
    public static IReadOnlyList<ScenarioError> Validate(ScenarioSpec scenario, PolicyCatalog? catalog = null, LiveRunnerOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var errors = ScenarioLoader.Validate(scenario, catalog ?? PolicyCatalog.Default).ToList();
        var configurations = scenario.Configurations ?? [];
        for (var i = 0; i < configurations.Count; i++)
        {
            errors.AddRange(ValidateLiveConfiguration(configurations[i], $"configurations[{i}]"));
        }

        errors.AddRange(ValidateAddresses(scenario, options ?? new LiveRunnerOptions()));
        return errors;
    }

    // Cake's SLO controller drives each simulated disk's share scheduler from the front end's latencies; the simulator
    // builds it per instance (SimInstance), and hosting knows no policy by that name.
    private static IEnumerable<ScenarioError> ValidateLiveConfiguration(ConfigurationSpec configuration, string path)
    {
        if (string.Equals(configuration.RateLimitPolicy, RateLimitPolicies.CakeSlo, StringComparison.OrdinalIgnoreCase))
        {
            yield return new ScenarioError(
                path + ".rateLimitPolicy",
                $"'{RateLimitPolicies.CakeSlo}' runs in the simulated runner only (--runner simulated): it drives each simulated disk's Cake share scheduler, which the live runner does not build");
        }
    }

    private static IEnumerable<ScenarioError> ValidateAddresses(ScenarioSpec scenario, LiveRunnerOptions options)
    {
        var services = (scenario.Services ?? []).ToDictionary(s => s.Name ?? string.Empty, StringComparer.Ordinal);
        foreach (var (service, list) in options.Addresses)
        {
            var path = $"addresses.{service}";
            if (!services.TryGetValue(service, out var spec))
            {
                yield return new ScenarioError(path, $"no service is named '{service}'");
                continue;
            }

            if (list.Count != spec.Instances)
            {
                yield return new ScenarioError(path, $"has {list.Count} addresses; the service has {spec.Instances} instances");
            }

            for (var i = 0; i < list.Count; i++)
            {
                if (!Uri.TryCreate(list[i], UriKind.Absolute, out var uri) || uri.Scheme != Uri.UriSchemeHttp || uri.Port <= 0)
                {
                    yield return new ScenarioError($"{path}[{i}]", $"'{list[i]}' is not an absolute http address with a port");
                }
            }
        }
    }
}
