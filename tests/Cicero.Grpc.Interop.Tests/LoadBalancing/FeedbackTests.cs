// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.LoadBalancing;
using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>
/// Each response's feedback (from Cicero's trailer) reaches the replica that served it: a selector registered by name
/// records every feedback with its replica id (<c>host:port</c>); each server reports its own background activity
/// and takes its own extra service time (0, 20, 40 ms), so a record names the server it came from.
/// </summary>
public sealed class FeedbackTests
{
    private const int Calls = 60;

    [Fact]
    public async Task Each_response_s_feedback_reaches_the_replica_that_served_it()
    {
        await using var replicas = await StartReplicasAsync();
        var selector = new RecordingSelector();
        using var channel = Create(replicas, selector);
        await WarmUpAsync(channel, replicas);
        selector.Clear();

        var ports = await channel.EchoAsync(Calls, concurrency: 3);

        var feedback = selector.Feedback;
        Assert.Equal(Calls, feedback.Count);
        AssertEachFeedbackIsItsReplicas(replicas, feedback, ports);
    }

    [Fact]
    public async Task Feedback_of_calls_inside_a_Cicero_request_reaches_the_replica_that_served_it_from_a_cold_channel()
    {
        await using var replicas = await StartReplicasAsync();
        var selector = new RecordingSelector();
        using var channel = Create(replicas, selector);

        // Not connected first: the first picks wait for the subchannels, so they run after the interceptor returned.
        IReadOnlyList<int> ports;
        using (CiceroContext.Use(channel.Runtime.StartRequest("feedback", TimeSpan.FromSeconds(60))))
        {
            ports = await channel.EchoAsync(Calls, concurrency: 3);
        }

        // While subchannels become ready one by one, a pick the group made for a replica an older picker does not know
        // is taken back without feedback: the selector hears of responses only, one per call.
        var feedback = selector.Feedback;
        Assert.Equal(Calls, feedback.Count);
        AssertEachFeedbackIsItsReplicas(replicas, feedback, ports);
    }

    [Fact]
    public async Task Feedback_of_a_call_outside_a_request_on_a_cold_channel_carries_the_server_s_report()
    {
        await using var replicas = await StartReplicasAsync();
        var selector = new RecordingSelector();
        using var channel = Create(replicas, selector);

        // The first call on a cold channel waits for a subchannel before its pick.
        var reply = await channel.Client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));

        var (replica, report) = Assert.Single(selector.Feedback);
        Assert.EndsWith($":{reply.Port}", replica, StringComparison.Ordinal);
        Assert.Equal(ProbeReplicas.BackgroundActivityOf(replicas.IndexOf(reply.Port)), report.BackgroundActivity, 1e-6);
    }

    private static Task<ProbeReplicas> StartReplicasAsync() => ProbeReplicas.StartAsync(
        new ProbeState(),
        new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(20) },
        new ProbeState { ExtraDelay = TimeSpan.FromMilliseconds(40) });

    private static BalancedChannel Create(ProbeReplicas replicas, RecordingSelector selector) => BalancedChannel.Create(
        replicas.Addresses,
        "recording",
        services => services.AddSingleton<LoadBalancerFactory>(
            new ReplicaSelectorBalancerFactory(new DelegateReplicaSelectorFactory("recording", _ => selector))));

    /// <summary>Calls until every server answered once (the selector takes turns), so all subchannels are ready.</summary>
    private static async Task WarmUpAsync(BalancedChannel channel, ProbeReplicas replicas)
    {
        await channel.Channel.ConnectAsync();
        for (var i = 0; i < 100 && replicas.States.Any(s => s.Calls == 0); i++)
        {
            await channel.Client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));
        }

        Assert.All(replicas.States, s => Assert.True(s.Calls > 0));
        foreach (var state in replicas.States)
        {
            state.ResetCalls();
        }
    }

    private static void AssertEachFeedbackIsItsReplicas(ProbeReplicas replicas, IReadOnlyList<(string Replica, ReplicaFeedback Feedback)> feedback, IReadOnlyList<int> ports)
    {
        foreach (var (replica, report) in feedback)
        {
            var port = int.Parse(replica[(replica.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
            var index = replicas.IndexOf(port);
            Assert.False(report.Failed, $"a call to {replica} was reported failed");

            // The background activity is the answering server's own: this feedback came from the replica it updates.
            Assert.Equal(ProbeReplicas.BackgroundActivityOf(index), report.BackgroundActivity, 1e-6);

            // So is the service time: the server's own extra delay, give or take the few milliseconds by which .NET's
            // coarse timer clock may fire a delay early.
            var extra = replicas.States[index].ExtraDelay;
            Assert.True(report.ServiceTime >= extra - TimeSpan.FromMilliseconds(5), $"{replica} reported a service time of {report.ServiceTime}, its handler takes {extra}");
        }

        // As many feedbacks per replica as replies that server sent, and as many as it served.
        for (var i = 0; i < replicas.States.Count; i++)
        {
            var port = replicas.Addresses[i].Port;
            Assert.Equal(ports.Count(p => p == port), feedback.Count(f => f.Replica.EndsWith($":{port}", StringComparison.Ordinal)));
            Assert.Equal(replicas.States[i].Calls, ports.Count(p => p == port));
        }
    }
}
