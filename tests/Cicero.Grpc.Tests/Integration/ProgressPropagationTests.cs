// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Integration;

/// <summary>entry -> middle -> 3 x leaf in parallel, over real Kestrel servers: b joins as section 5.2.4 says.</summary>
public sealed class ProgressPropagationTests
{
    private static readonly Method<string, string> Work = TestMethods.Unary("Work");

    [Fact]
    public async Task Progress_counters_arrive_at_the_entry_as_hand_computed()
    {
        var leafArrivals = new System.Collections.Concurrent.ConcurrentBag<ProgressDelta>();
        await using var leaf = await TestHost.StartAsync(
            s => s.AddCicero(o => { o.ServiceName = "leaf"; o.IsEntryPoint = false; o.RateExchange.RunControlLoop = false; }),
            app => app.MapGrpcUnary(Work, (string request, ServerCallContext context) =>
            {
                var current = CiceroContext.Current!;
                leafArrivals.Add(current.BeforeArrival);
                current.Progress.AddLocalWork(double.Parse(request, CultureInfo.InvariantCulture), 1);
                return Task.FromResult(current.Workflow.Value);
            }));

        await using var middle = await TestHost.StartAsync(
            s => s.AddCicero(o => { o.ServiceName = "middle"; o.IsEntryPoint = false; o.RateExchange.RunControlLoop = false; })
                .AddDownstream("leaf", [leaf.Address.ToString()], "round_robin"),
            app => app.MapGrpcUnary(Work, async (string request, ServerCallContext context) =>
            {
                CiceroContext.Current!.Progress.AddLocalWork(0.002, 1);
                var invoker = app.Services.GetRequiredService<CiceroDownstreams>().GetCallInvoker("leaf");
                string[] workflows;
                using (ParallelCalls.Begin())
                {
                    workflows = await Task.WhenAll(new[] { "0.004", "0.006", "0.008" }.Select(async t => await invoker.AsyncUnaryCall(Work, default, t)));
                }

                return string.Join(",", workflows);
            }));

        await using var entry = await TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.ServiceName = "entry";
                o.Classifier = Classification.WorkflowClassifiers.Fixed("tenant-a");
                o.RateExchange.RunControlLoop = false;
            }).AddDownstream("middle", [middle.Address.ToString()], "round_robin"),
            app => app.MapGrpcUnary(Work, async (string request, ServerCallContext context) =>
            {
                CiceroContext.Current!.Progress.AddLocalWork(0.001, 1);
                return await app.Services.GetRequiredService<CiceroDownstreams>().GetCallInvoker("middle").AsyncUnaryCall(Work, default, request);
            }));

        using var channel = RpcChannel.ForAddress(entry.Address);
        var call = channel.CreateCallInvoker().AsyncUnaryCall(Work, default, "go");
        Assert.Equal("tenant-a,tenant-a,tenant-a", await call);

        // Leaves: b = (0.004, 1), (0.006, 1), (0.008, 1). Middle: (0.002, 1) + join = (0.002 + 0.018 / 3, 1 + 3) = (0.008, 4).
        // Entry: (0.001, 1) + middle = (0.009, 5).
        // b travels in single precision (the result trailer, docs/context-wire-format.md): 7 significant digits per hop.
        Assert.True(CiceroTrailers.TryReadProgress(call.GetTrailers(), out var total));
        Assert.Equal(0.009, total.ServiceTime, tolerance: 1e-8);
        Assert.Equal(5, total.Load, tolerance: 1e-6);

        // Each leaf was called after the entry's and the middle's local work: a = (0.003, 2).
        Assert.Equal(3, leafArrivals.Count);
        Assert.All(leafArrivals, a =>
        {
            Assert.Equal(0.003, a.ServiceTime, 12);
            Assert.Equal(2, a.Load, 12);
        });
    }
}
