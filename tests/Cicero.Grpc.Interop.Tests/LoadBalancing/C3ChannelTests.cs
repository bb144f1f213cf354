// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.LoadBalancing;
using Cicero.Policies.ReplicaSelection;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>C3 as a grpc-dotnet load-balancing policy on a <c>GrpcChannel</c> over three servers, one of them slow.</summary>
public sealed class C3ChannelTests
{
    [Fact]
    public async Task C3_sends_most_calls_to_the_fast_servers_and_loses_none()
    {
        await using var replicas = await ProbeReplicas.StartAsync(
            new ProbeState(),
            new ProbeState(),
            new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(20) });

        // C3's cubic rate control starts each replica at 10 requests per 20 ms window; a closed loop of 6 callers on
        // loopback asks more than that, and C3 would then spill onto any replica with tokens left, the slow one too.
        // As docs/grpc-integration.md advises for such hot clients, this client raises the rates; its factory comes
        // before AddCiceroLoadBalancing()'s, and grpc-dotnet takes the first factory named "c3".
        var c3 = new C3Options();
        c3.Rate.InitialRate = 1000;
        c3.Rate.MaxTokens = 1000;
        using var channel = BalancedChannel.Create(
            replicas.Addresses,
            "c3",
            services => services.AddSingleton<LoadBalancerFactory>(ReplicaSelectorBalancerFactory.C3(c3)).AddCiceroLoadBalancing());

        const int Calls = 300;
        var ports = await channel.EchoAsync(Calls, concurrency: 6);

        // Every call was answered, once: the servers ran exactly as many handlers as the client got replies.
        Assert.Equal(Calls, ports.Count(p => p != 0));
        Assert.Equal(Calls, replicas.States.Sum(s => s.Calls));
        var slow = replicas.States[2].Calls;

        // Round robin would send a third (100) to the slow server; C3 ranks it last once its service time is known.
        Assert.True(slow < Calls * 15 / 100, $"the slow server served {slow} of {Calls}; per server: {string.Join(", ", replicas.States.Select(s => s.Calls))}");
    }

    [Fact]
    public async Task Default_c3_of_AddCiceroLoadBalancing_balances_a_client_only_channel_without_loss()
    {
        await using var replicas = await ProbeReplicas.StartAsync(
            new ProbeState(),
            new ProbeState(),
            new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(20) });

        // The policy exactly as AddCiceroLoadBalancing() registers it (the paper's rates). Which servers a closed loop
        // this hot ends up on is up to C3's rate control (see the test above), so only delivery is asserted here.
        using var channel = BalancedChannel.Create(replicas.Addresses, "c3", services => services.AddCiceroLoadBalancing());

        const int Calls = 120;
        var ports = await channel.EchoAsync(Calls, concurrency: 4);

        Assert.Equal(Calls, ports.Count(p => p != 0));
        Assert.Equal(Calls, replicas.States.Sum(s => s.Calls));
    }

    [Fact]
    public async Task Default_c3_behind_the_interceptor_answers_every_call_and_keeps_a_hot_closed_loop_off_the_slow_server()
    {
        // Issue 35: behind Cicero's client interceptor, the paper's rate limits held calls in a backlog until their
        // deadline, and on servers without a queue they spilled a closed loop onto the slow server. The default c3 is
        // judged against round_robin over the same servers in the same run, with wide slack for a busy machine.
        await using var replicas = await ProbeReplicas.StartAsync(
            new ProbeState(),
            new ProbeState(),
            new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(20) });

        const int Calls = 480;
        var slowShare = new Dictionary<string, double>();
        foreach (var policy in new[] { "round_robin", "c3" })
        {
            var before = replicas.States[2].Calls;
            var total = replicas.States.Sum(s => s.Calls);
            using var channel = BalancedChannel.Create(replicas.Addresses, policy, services => services.AddCiceroLoadBalancing());
            var ports = await channel.EchoAsync(Calls, concurrency: 16);

            Assert.Equal(Calls, ports.Count(p => p != 0));
            Assert.Equal(Calls, replicas.States.Sum(s => s.Calls) - total);
            slowShare[policy] = (double)(replicas.States[2].Calls - before) / Calls;
        }

        Assert.True(
            slowShare["c3"] < slowShare["round_robin"] / 2,
            $"the slow server's share: c3 {slowShare["c3"]:P1}, round_robin {slowShare["round_robin"]:P1}");
    }
}
