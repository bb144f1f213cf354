// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Diagnostics;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Telemetry;
using Cicero.Grpc.Tests.Infrastructure;

namespace Cicero.Grpc.Tests.Integration;

public sealed class StreamingAndTelemetryTests
{
    [Fact]
    public async Task Streaming_calls_run_in_the_request_context_and_end_with_cicero_trailers()
    {
        await using var host = await TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.ServiceName = "svc";
                o.Classifier = Classification.WorkflowClassifiers.Fixed("streamer");
                o.RateExchange.RunControlLoop = false;
            }),
            app =>
            {
                app.MapGrpcServerStreaming(TestMethods.ServerStreaming(), async (string request, IAsyncStreamWriter<string> responses, ServerCallContext context) =>
                {
                    CiceroContext.Current!.Progress.AddLocalWork(0.5, 2);
                    await responses.WriteAsync(CiceroContext.Current.Workflow.Value);
                    await responses.WriteAsync(request);
                });
                app.MapGrpcDuplexStreaming(TestMethods.Duplex(), async (IAsyncStreamReader<string> requests, IAsyncStreamWriter<string> responses, ServerCallContext context) =>
                {
                    while (await requests.MoveNext())
                    {
                        CiceroContext.Current!.Progress.AddLocalWork(0.25, 1);
                        await responses.WriteAsync(CiceroContext.Current.Workflow.Value);
                    }
                });
            });
        using var channel = RpcChannel.ForAddress(host.Address);
        var client = channel.CreateCallInvoker();

        using var serverStreaming = client.AsyncServerStreamingCall(TestMethods.ServerStreaming(), default, "x");
        var received = new List<string>();
        while (await serverStreaming.ResponseStream.MoveNext())
        {
            received.Add(serverStreaming.ResponseStream.Current);
        }

        Assert.Equal(["streamer", "x"], received);
        Assert.True(CiceroTrailers.TryReadProgress(serverStreaming.GetTrailers(), out var progress));
        Assert.Equal(new ProgressDelta(0.5, 2), progress);

        using var duplex = client.AsyncDuplexStreamingCall(TestMethods.Duplex(), default);
        for (var i = 0; i < 4; i++)
        {
            await duplex.RequestStream.WriteAsync("m");
            Assert.True(await duplex.ResponseStream.MoveNext());
            Assert.Equal("streamer", duplex.ResponseStream.Current);
        }

        await duplex.RequestStream.CompleteAsync();
        Assert.False(await duplex.ResponseStream.MoveNext());
        Assert.True(CiceroTrailers.TryReadProgress(duplex.GetTrailers(), out var duplexProgress));
        Assert.Equal(new ProgressDelta(1.0, 4), duplexProgress);
        Assert.True(CiceroTrailers.TryRead(duplex.GetTrailers(), out var result));
        Assert.Equal(duplexProgress, result.Progress);
        Assert.False(string.IsNullOrEmpty(result.Instance));
    }

    [Fact]
    public async Task Server_spans_carry_the_bounded_workflow_and_the_admission_decision()
    {
        var spans = new ConcurrentQueue<Activity>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == CiceroTelemetry.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = spans.Enqueue,
        };
        ActivitySource.AddActivityListener(listener);

        var method = TestMethods.Unary("Traced");
        await using var host = await TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.ServiceName = "svc";
                o.Classifier = Classification.WorkflowClassifiers.ByHeader("x-tenant");
                o.QueueForAdmission = false;
                o.RateExchange.RunControlLoop = false;
            }),
            app => app.MapGrpcUnary(method, (string request, ServerCallContext context) => Task.FromResult(request)));
        var runtime = (Cicero.Runtime.CiceroRuntime)host.Services.GetService(typeof(Cicero.Runtime.CiceroRuntime))!;
        runtime.CreateRateLimiter("blocked", new Cicero.Admission.RateLimiterProperties(0.001, 1, 0));
        using var channel = RpcChannel.ForAddress(host.Address);
        var client = channel.CreateCallInvoker();

        await client.AsyncUnaryCall(method, new CallOptions(new Metadata().Add("x-tenant", "alpha")), "x");
        await client.AsyncUnaryCall(method, new CallOptions(new Metadata().Add("x-tenant", "blocked")), "x");
        await Assert.ThrowsAsync<RpcException>(async () => await client.AsyncUnaryCall(method, new CallOptions(new Metadata().Add("x-tenant", "blocked")), "x"));

        var ours = spans.Where(s => s.OperationName == CiceroGrpcTelemetry.ServerActivityPrefix + method.FullName).ToList();
        Assert.Equal(3, ours.Count);
        Assert.All(ours, s => Assert.NotNull(s.GetTagItem(CiceroTelemetry.WorkflowTag)));
        Assert.Equal(2, ours.Count(s => (string?)s.GetTagItem(CiceroGrpcTelemetry.AdmissionTag) == CiceroGrpcTelemetry.AdmissionAdmitted));
        var dropped = Assert.Single(ours, s => (string?)s.GetTagItem(CiceroGrpcTelemetry.AdmissionTag) == CiceroGrpcTelemetry.AdmissionDropped);
        Assert.Equal("rate_limited", dropped.GetTagItem(CiceroTelemetry.DropReasonTag));
    }
}
