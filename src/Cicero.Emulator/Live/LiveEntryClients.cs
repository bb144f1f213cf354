// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live.Protocol;
using Cicero.Emulator.Simulation.Topology;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Emulator.Live;

/// <summary>
/// The load generator's clients: one <see cref="GrpcChannel"/> per entry service over its instances, balanced by
/// grpc-dotnet's <c>round_robin</c>. The generator is an outside client, not a Cicero process: its calls carry only
/// the workflow header and the RPC timeout, and the entry instances classify and admit them.
/// </summary>
internal sealed class LiveEntryClients : IDisposable
{
    private const string Policy = "round_robin";

    private readonly ServiceProvider _services;
    private readonly List<GrpcChannel> _channels = [];

    public LiveEntryClients(CompiledScenario compiled, IReadOnlyList<Uri?[]> addresses)
    {
        var targets = new Dictionary<string, BalancerAddress[]>(StringComparer.Ordinal);
        _services = new ServiceCollection()
            .AddSingleton<ResolverFactory>(new StaticResolverFactory(address => targets[LiveChannels.NameOf(address)]))
            .BuildServiceProvider();
        Clients = new Node.NodeClient?[compiled.Services.Length];
        foreach (var entry in compiled.Workflows.Select(w => w.Entry).Distinct())
        {
            targets[entry.Name] = [.. addresses[entry.Index].Select((address, i) => LiveChannels.ToBalancerAddress(address ?? throw new InvalidOperationException(
                $"Entry instance {entry.Name}-{i} is neither hosted here nor given an address.")))];
            var channel = LiveChannels.Create(entry.Name, _services, Policy);
            _channels.Add(channel);
            Clients[entry.Index] = new Node.NodeClient(channel);
        }
    }

    /// <summary>Gets the client of each entry service, by service index; null for services no workflow enters at.</summary>
    public Node.NodeClient?[] Clients { get; }

    public void Dispose()
    {
        foreach (var channel in _channels)
        {
            channel.Dispose();
        }

        _services.Dispose();
    }
}
