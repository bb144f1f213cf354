// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.LoadBalancing;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Tests.LoadBalancing;

public sealed class C3LoadBalancerTests
{
    private static readonly Method<string, string> Work = TestMethods.Unary("Work");

    [Fact]
    public async Task C3_sends_most_calls_to_the_fast_servers_when_one_is_slow_and_loses_none()
    {
        const int Calls = 300;
        const int Concurrency = 6;
        var served = new ConcurrentDictionary<string, int>();
        await using var fast1 = await StartServerAsync("fast-1", TimeSpan.FromMilliseconds(1), served);
        await using var fast2 = await StartServerAsync("fast-2", TimeSpan.FromMilliseconds(1), served);
        await using var slow = await StartServerAsync("slow", TimeSpan.FromMilliseconds(40), served);

        var options = new RpcChannelOptions { LoadBalancingPolicy = "c3" };
        var c3 = new Cicero.Policies.ReplicaSelection.C3Options();
        c3.Rate.InitialRate = 1000;
        c3.Rate.MaxTokens = 1000;
        options.LoadBalancerFactories.Add(ReplicaSelectorLoadBalancerFactory.C3(c3));
        using var channel = RpcChannel.ForAddresses([fast1.Address, fast2.Address, slow.Address], options);
        var client = channel.CreateCallInvoker();

        var next = -1;
        var succeeded = 0;
        await Task.WhenAll(Enumerable.Range(0, Concurrency).Select(async _ =>
        {
            while (Interlocked.Increment(ref next) < Calls)
            {
                await client.AsyncUnaryCall(Work, new CallOptions(Deadline: TimeProvider.System.GetUtcNow().AddSeconds(30)), "x");
                Interlocked.Increment(ref succeeded);
            }
        }));

        Assert.Equal(Calls, succeeded);
        Assert.Equal(Calls, served.Values.Sum());
        var slowShare = served.GetValueOrDefault("slow") / (double)Calls;
        Assert.True(slowShare < 0.15, $"the slow server took {slowShare:P0} of the calls: {string.Join(", ", served)}");
    }

    [Fact]
    public async Task Trailer_feedback_reaches_the_selector_for_the_replica_that_sent_it()
    {
        await using var quiet = await StartServerAsync("quiet", TimeSpan.Zero, new(), background: 0.25);
        await using var busy = await StartServerAsync("busy", TimeSpan.Zero, new(), background: 0.75);
        var spy = new SpySelector();
        var options = new RpcChannelOptions { LoadBalancingPolicy = "spy" };
        options.LoadBalancerFactories.Add(new ReplicaSelectorLoadBalancerFactory(new SpySelectorFactory(spy)));
        using var channel = RpcChannel.ForAddresses([quiet.Address, busy.Address], options);
        var client = channel.CreateCallInvoker();

        for (var i = 0; i < 20; i++)
        {
            await client.AsyncUnaryCall(Work, default, "x");
        }

        var expected = new Dictionary<string, double>
        {
            [InstanceIds.FromAddress(quiet.Address)] = 0.25,
            [InstanceIds.FromAddress(busy.Address)] = 0.75,
        };
        Assert.Equal(20, spy.Feedback.Count);
        Assert.Equal(2, spy.Feedback.Select(f => f.Replica).Distinct().Count());
        Assert.All(spy.Feedback, f =>
        {
            Assert.Equal(expected[f.Replica], f.Feedback.BackgroundActivity);
            Assert.False(f.Feedback.Failed);
            Assert.True(f.Feedback.ServiceTime <= f.Feedback.ResponseTime);
        });
    }

    private static Task<TestHost> StartServerAsync(string name, TimeSpan serviceTime, ConcurrentDictionary<string, int> served, double background = 0) =>
        TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.ServiceName = "store";
                o.RateExchange.RunControlLoop = false;
                o.BackgroundActivity = () => background;
            }),
            app => app.MapGrpcUnary(Work, async (string request, ServerCallContext context) =>
            {
                served.AddOrUpdate(name, 1, (_, n) => n + 1);
                if (serviceTime > TimeSpan.Zero)
                {
                    // Emulated service time, not synchronization.
                    await Task.Delay(serviceTime, TimeProvider.System, context.CancellationToken);
                }

                return name;
            }));

    private sealed class SpySelector : IReplicaSelector
    {
        private int _next;

        public ConcurrentQueue<(string Replica, ReplicaFeedback Feedback)> Feedback { get; } = new();

        public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now) => ReplicaChoice.Replica(_next++ % replicas.Length);

        public void OnSent(ReplicaState replica, long now)
        {
        }

        public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => Feedback.Enqueue((replica.Id, feedback));
    }

    private sealed class SpySelectorFactory(SpySelector selector) : ReplicaSelectorFactory
    {
        public override string Name => "spy";

        public override IReplicaSelector Create(long timestampFrequency) => selector;
    }
}
