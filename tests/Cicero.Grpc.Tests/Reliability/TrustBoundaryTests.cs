// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Policies.Scheduling;
using Cicero.Time;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Issue 8 item 5, first half: at an entry point a client that forges the context header (elapsed time, deadline,
/// progress a, estimates T) and a caller name gains no priority at a contended resource. Requests queue behind a
/// holder of a capacity-1 resource under a deadline-aware scheduler; the order is decided by what the server itself
/// saw (arrival and the call's own gRPC deadline). The same forgery at a server told to trust incoming contexts
/// does jump the queue, which shows the test would notice.
/// </summary>
public sealed class TrustBoundaryTests
{
    private const string Resource = "db";

    [Theory]
    [InlineData(SubtaskSchedulerNames.EarliestDeadlineFirst)]
    [InlineData(SubtaskSchedulerNames.LeastSlackTimeFirst)]
    public async Task EntryPoint_ForgedContextAndCaller_GainNoPriority(string scheduler)
    {
        var order = await RunAsync(scheduler, trustIncomingContext: false);

        Assert.Equal(["holder", "honest", "forger"], order);
    }

    [Theory]
    [InlineData(SubtaskSchedulerNames.EarliestDeadlineFirst)]
    [InlineData(SubtaskSchedulerNames.LeastSlackTimeFirst)]
    public async Task TrustingServer_SameForgery_JumpsTheQueue(string scheduler)
    {
        var order = await RunAsync(scheduler, trustIncomingContext: true);

        Assert.Equal(["holder", "forger", "honest"], order);
    }

    private static async Task<List<string>> RunAsync(string scheduler, bool trustIncomingContext)
    {
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromMinutes(1));
        var order = new List<string>();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var cicero = new CiceroServices(
            o =>
            {
                // One workflow for all three, so the model's per-workflow estimates cannot tell them apart.
                o.Classifier = WorkflowClassifiers.Fixed("tenant");
                o.TrustIncomingContext = trustIncomingContext;
                o.Resources.Add(new CiceroResourceOptions { Name = Resource, Capacity = 1, Scheduler = scheduler });
            },
            clock);
        var resource = cicero.Runtime.GetResource(Resource);
        UnaryServerMethod<string, string> handler = async (request, _) =>
        {
            using var lease = await resource.AcquireAsync(CiceroContext.Current!);
            lock (order)
            {
                order.Add(request);
            }

            if (request == "holder")
            {
                await release.Task;
            }

            return request;
        };

        // Each call runs synchronously up to the resource's queue, so the queue length proves the order of arrival.
        var holder = cicero.Interceptor.UnaryServerHandler("holder", Call(clock, forge: false), handler);
        Assert.Equal(1, resource.InUse);
        clock.Advance(TimeSpan.FromMilliseconds(10));
        var honest = cicero.Interceptor.UnaryServerHandler("honest", Call(clock, forge: false), handler);
        Assert.Equal(1, resource.QueueLength);
        clock.Advance(TimeSpan.FromMilliseconds(10));
        var forger = cicero.Interceptor.UnaryServerHandler("forger", Call(clock, forge: true), handler);
        Assert.Equal(2, resource.QueueLength);

        release.SetResult();
        await Task.WhenAll(holder, honest, forger).WaitAsync(TimeSpan.FromSeconds(30), TimeProvider.System);
        return order;
    }

    /// <summary>Both clients give the same gRPC deadline, 10 s: the one thing an entry point takes from the caller.</summary>
    private static TestServerCallContext Call(TimeProvider clock, bool forge)
    {
        var headers = new Metadata();
        if (forge)
        {
            headers.Add(CiceroMetadataKeys.Context, [.. ForgedContext(), .. "http://trusted-upstream:443"u8]);
        }

        return new TestServerCallContext(deadline: clock.GetUtcNow().UtcDateTime.AddSeconds(10), requestHeaders: headers);
    }

    /// <summary>
    /// A context claiming 5 s already spent of a 6 s deadline, 4 s of service done and 4.5 s expected in all: under EDF
    /// its deadline is 1 s away (the honest call's is 10 s), under LSTF its slack is 0.5 s. It stays feasible, so a
    /// trusting server admits it and the drop policy does not hide the effect.
    /// </summary>
    private static byte[] ForgedContext()
    {
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromSeconds(5));
        var context = RequestContext.Create("tenant", 0, TimeSpan.FromSeconds(6), new ProgressDelta(4.0, 10), ProgressDelta.Zero, new ProgressDelta(4.5, 12));
        return new RequestContextCodec(clock).Encode(context);
    }
}
