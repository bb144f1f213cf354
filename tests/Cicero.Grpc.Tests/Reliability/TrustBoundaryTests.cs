// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.Text;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Policies.Scheduling;
using Cicero.Time;

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
    private static readonly TimeSpan Watchdog = TimeSpan.FromSeconds(5);

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
        using var server = new InProcessServer(
            o =>
            {
                // One workflow for all three, so the model's per-workflow estimates cannot tell them apart.
                o.Classifier = WorkflowClassifiers.Fixed("tenant");
                o.TrustIncomingContext = trustIncomingContext;
                o.Resources.Add(new CiceroResourceOptions { Name = Resource, Capacity = 1, Scheduler = scheduler });
            },
            clock);
        var resource = server.Runtime.GetResource(Resource);
        var handler = server.Map(TestMethods.Unary(), new UnaryServerMethod<string, string>(async (request, context) =>
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
        }));

        // Each call runs synchronously up to the resource's queue, so the queue length proves the order of arrival.
        var holder = InProcessCall.RunAsync(handler.HandleAsync, Call("holder", forge: false), Watchdog);
        Assert.Equal(1, resource.InUse);
        clock.Advance(TimeSpan.FromMilliseconds(10));
        var honest = InProcessCall.RunAsync(handler.HandleAsync, Call("honest", forge: false), Watchdog);
        Assert.Equal(1, resource.QueueLength);
        clock.Advance(TimeSpan.FromMilliseconds(10));
        var forger = InProcessCall.RunAsync(handler.HandleAsync, Call("forger", forge: true), Watchdog);
        Assert.Equal(2, resource.QueueLength);

        release.SetResult();
        foreach (var call in new[] { holder, honest, forger })
        {
            Assert.Equal(StatusCode.OK, (await call).Status);
        }

        return order;
    }

    private static InProcessRequest Call(string name, bool forge)
    {
        var payload = Encoding.UTF8.GetBytes(name);
        var body = new byte[FrameBuffer.HeaderLength + payload.Length];
        BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), (uint)payload.Length);
        payload.CopyTo(body, FrameBuffer.HeaderLength);
        var request = new InProcessRequest { Body = body };

        // Both clients give the same gRPC deadline: the one thing an entry point takes from the caller.
        request.Headers.Add(new(GrpcProtocol.TimeoutHeader, "10S"));
        if (forge)
        {
            request.Headers.Add(new(CiceroMetadataKeys.Context, Base64Metadata.Encode(ForgedContext())));
            request.Headers.Add(new(CiceroMetadataKeys.Caller, "http://trusted-upstream:443"));
        }

        return request;
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
