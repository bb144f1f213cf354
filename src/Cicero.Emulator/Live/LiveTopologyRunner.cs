// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Protocol;
using Cicero.Policies.Registration;

namespace Cicero.Emulator.Live;

/// <summary>
/// Runs a scenario live: every instance a real gRPC server (Cicero.Grpc) on 127.0.0.1 in this process, emulated
/// service times as real delays, the workloads offered in real time by a load generator that calls the entry
/// instances. Results have the simulator's shape, so the two runners compare directly.
/// </summary>
/// <remarks>
/// Wall-clock bound: the scenario's duration plus the time the last requests take (at most the RPC timeout). Not
/// repeatable bit for bit (real time, real threads); use <see cref="TopologySimulation"/> for that.
/// </remarks>
public sealed class LiveTopologyRunner
{
    private readonly ScenarioSpec _scenario;
    private readonly ConfigurationSpec _configuration;
    private readonly PolicyCatalog _catalog;

    /// <summary>Creates the runner for one configuration of a scenario.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="configuration">The configuration to run.</param>
    /// <param name="catalog">Where policies are found by name; the default catalog when <see langword="null"/>.</param>
    /// <exception cref="ScenarioValidationException">The scenario or configuration is invalid.</exception>
    public LiveTopologyRunner(ScenarioSpec scenario, ConfigurationSpec configuration, PolicyCatalog? catalog = null)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        ArgumentNullException.ThrowIfNull(configuration);
        _catalog = catalog ?? PolicyCatalog.Default;
        var errors = ScenarioLoader.Validate(scenario, _catalog).ToList();
        errors.AddRange(new ScenarioValidator(_catalog).ValidateConfiguration(configuration, "configuration"));
        if (errors.Count > 0)
        {
            throw new ScenarioValidationException(errors, scenario.Name);
        }

        _scenario = scenario;
        _configuration = configuration;
    }

    /// <summary>Runs every configuration of a scenario live, one after another.</summary>
    /// <param name="scenario">The scenario.</param>
    /// <param name="catalog">Where policies are found by name.</param>
    /// <param name="cancellationToken">Stops the runs.</param>
    /// <returns>One result per configuration.</returns>
    public static async Task<IReadOnlyList<TopologyRunResult>> RunAllAsync(ScenarioSpec scenario, PolicyCatalog? catalog = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(scenario);
        var results = new List<TopologyRunResult>();
        foreach (var configuration in scenario.Configurations ?? [])
        {
            results.Add(await new LiveTopologyRunner(scenario, configuration, catalog).RunAsync(cancellationToken).ConfigureAwait(false));
        }

        return results;
    }

    /// <summary>Starts the instances, offers the workloads, waits for every request's outcome, and stops.</summary>
    /// <param name="cancellationToken">Stops offering new requests.</param>
    /// <returns>The results over the measured window.</returns>
    /// <exception cref="ConservationException">A request ended without an outcome.</exception>
    public async Task<TopologyRunResult> RunAsync(CancellationToken cancellationToken = default)
    {
        var topology = new LiveTopology(_scenario, _configuration, _catalog);
        var compiled = topology.Compiled;
        var instances = new List<LiveInstance[]>();
        var clients = new List<RpcChannel>();
        var seed = SeedStreams.Derive(_scenario.Seed, SeedStreams.Routing);
        try
        {
            foreach (var service in compiled.Services)
            {
                var tier = new LiveInstance[service.Instances];
                for (var i = 0; i < tier.Length; i++)
                {
                    tier[i] = new LiveInstance(topology, service, i, _configuration, seed + (service.Index * 1000) + i);
                    await tier[i].StartAsync(port: 0).ConfigureAwait(false);
                }

                instances.Add(tier);
            }

            foreach (var tier in instances)
            {
                foreach (var instance in tier)
                {
                    instance.Connect(instances);
                }
            }

            var entries = new CallInvoker[compiled.Services.Length][];
            foreach (var workflow in compiled.Workflows)
            {
                entries[workflow.Entry.Index] ??= [.. instances[workflow.Entry.Index].Select(i =>
                {
                    var channel = RpcChannel.ForAddress(i.Address);
                    clients.Add(channel);
                    return channel.CreateCallInvoker();
                })];
            }

            var driver = new LiveLoadGenerator(_scenario, topology, entries, instances);
            await driver.RunAsync(cancellationToken).ConfigureAwait(false);
            return driver.BuildResult(_configuration.Name ?? "configuration");
        }
        finally
        {
            foreach (var channel in clients)
            {
                channel.Dispose();
            }

            foreach (var tier in instances)
            {
                foreach (var instance in tier)
                {
                    await instance.DisposeAsync().ConfigureAwait(false);
                }
            }
        }
    }

}
