// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Text;
using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Grpc.Tests.Protos;
using Cicero.Runtime;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Hosting;

/// <summary>
/// <c>AddGrpcClient&lt;T&gt;().AddCiceroDownstream(name)</c> with <c>AddDownstream(name, addresses, policy)</c>: the client
/// reaches the configured instances through <c>cicero:///name</c> and the policy, and every call carries the caller's
/// context and this process's id, and brings the callee's progress back.
/// </summary>
public sealed class AddCiceroDownstreamTests
{
    private const string CallerId = "http://127.0.0.1:3";

    [Theory]
    [InlineData("round_robin")]
    [InlineData("c3")]
    public async Task Client_reaches_the_configured_instances_with_context_and_caller_id(string policy)
    {
        var seen = new ConcurrentQueue<(string Leaf, string Workflow, string Caller)>();
        await using var leaf1 = await StartLeafAsync("leaf-1", seen);
        await using var leaf2 = await StartLeafAsync("leaf-2", seen);
        var services = new ServiceCollection();
        services.AddLogging();
        services.AddCicero(o => { o.ServiceName = "middle"; o.InstanceId = CallerId; o.RateExchange.RunControlLoop = false; })
            .AddDownstream("leaf", [leaf1.Address.ToString(), leaf2.Address.ToString()], policy);
        services.AddGrpcClient<Probe.ProbeClient>().AddCiceroDownstream("leaf");
        await using var provider = services.BuildServiceProvider();
        var runtime = provider.GetRequiredService<CiceroRuntime>();
        var client = provider.GetRequiredService<Probe.ProbeClient>();
        var request = runtime.StartRequest("tenant-x");

        var calls = 0;
        using (CiceroContext.Use(request))
        {
            // Round robin reaches both within a few calls; bounded either way.
            while (calls < 100 && (calls < 10 || (policy == "round_robin" && seen.Select(s => s.Leaf).Distinct().Count() < 2)))
            {
                await client.WorkAsync(ProbeHandlers.Of("x"), deadline: TimeProvider.System.GetUtcNow().UtcDateTime.AddSeconds(10));
                calls++;
            }
        }

        Assert.Equal(calls, seen.Count);
        Assert.All(seen, s =>
        {
            Assert.Equal("tenant-x", s.Workflow);
            Assert.Equal(CallerId, s.Caller);
        });
        Assert.Subset(new HashSet<string> { "leaf-1", "leaf-2" }, seen.Select(s => s.Leaf).ToHashSet());
        if (policy == "round_robin")
        {
            Assert.Equal(2, seen.Select(s => s.Leaf).Distinct().Count());
        }

        // Each leaf reported one unit of load in its trailer; the client interceptor joined them all.
        Assert.Equal(calls, request.Progress.Current.Load, 6);
    }

    private static Task<TestHost> StartLeafAsync(string name, ConcurrentQueue<(string, string, string)> seen) => TestHost.StartProbeAsync(
        o => { o.ServiceName = "leaf"; o.IsEntryPoint = false; },
        new ProbeHandlers
        {
            Work = (request, context) =>
            {
                var header = context.RequestHeaders.GetValueBytes(CiceroMetadataKeys.Context) ?? [];
                ContextHeader.Split(header, out _, out var caller);
                CiceroContext.Current!.Progress.AddLocalWork(0.001, 1);
                seen.Enqueue((name, CiceroContext.Current.Workflow.Value, Encoding.ASCII.GetString(caller)));
                return Task.FromResult(request);
            },
        });
}
