// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.LoadBalancing;
using Cicero.Policies.ReplicaSelection;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>
/// When the selector answers Backlog (every replica out of tokens), calls wait in grpc-dotnet's pick queue and drain as
/// replicas free up: none is lost, none is sent twice.
/// </summary>
public sealed class BacklogTests
{
    [Fact]
    public async Task C3_with_tiny_rates_backlogs_calls_and_drains_them_without_loss()
    {
        await using var replicas = await ProbeReplicas.StartAsync(new ProbeState(), new ProbeState(), new ProbeState());

        // One request per 20 ms window and one token per replica: 150 calls per second for the three, far below
        // what 15 concurrent callers ask for, so picks are queued until the cubic rates refill.
        var c3 = new C3Options();
        c3.Rate.InitialRate = 1;
        c3.Rate.MaxTokens = 1;
        c3.Rate.MaxStep = 1;
        CountingSelector? selector = null;
        using var channel = BalancedChannel.Create(
            replicas.Addresses,
            "c3-tiny",
            services => services.AddSingleton<LoadBalancerFactory>(new ReplicaSelectorBalancerFactory(
                new DelegateReplicaSelectorFactory("c3-tiny", frequency => selector = new CountingSelector(new C3ReplicaSelector(c3, frequency))))));

        const int Calls = 90;
        var ports = await channel.EchoAsync(Calls, concurrency: 15);

        Assert.NotNull(selector);
        Assert.True(selector.Backlogged > 0, "C3 never answered Backlog: the test did not exercise the backlog");
        Assert.Equal(Calls, ports.Count(p => p != 0));
        Assert.Equal(Calls, replicas.States.Sum(s => s.Calls));
    }

    [Fact]
    public async Task Backlog_that_only_responses_free_drains_without_loss()
    {
        await using var replicas = await ProbeReplicas.StartAsync(
            new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(2) },
            new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(2) },
            new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(2) });
        var selector = new CountingSelector(new OneAtATimeSelector());
        using var channel = BalancedChannel.Create(
            replicas.Addresses,
            "one-at-a-time",
            services => services.AddSingleton<LoadBalancerFactory>(new ReplicaSelectorBalancerFactory(
                new DelegateReplicaSelectorFactory("one-at-a-time", _ => selector))));
        await channel.Channel.ConnectAsync();

        const int Calls = 120;
        var ports = await channel.EchoAsync(Calls, concurrency: 12);

        Assert.True(selector.Backlogged > 0, "the selector never answered Backlog");
        Assert.Equal(Calls, ports.Count(p => p != 0));
        Assert.Equal(Calls, replicas.States.Sum(s => s.Calls));

        // The backlog held the other callers back: no server ever ran two of these calls at once.
        Assert.All(replicas.States, s => Assert.Equal(1, s.MaxInFlight));
    }
}
