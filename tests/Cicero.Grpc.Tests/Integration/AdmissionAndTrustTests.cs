// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Runtime;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Integration;

public sealed class AdmissionAndTrustTests
{
    private const string Tenant = "tenant-a";
    private static readonly Method<string, string> Work = TestMethods.Unary("Work");

    [Fact]
    public async Task Rejected_request_is_resource_exhausted_with_its_reason_and_does_no_work()
    {
        var handled = 0;
        await using var host = await TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.ServiceName = "entry";
                o.Classifier = Classification.WorkflowClassifiers.Fixed(Tenant);
                o.QueueForAdmission = false;
                o.RateExchange.RunControlLoop = false;
            }),
            app => app.MapGrpcUnary(Work, (string request, ServerCallContext context) =>
            {
                Interlocked.Increment(ref handled);
                return Task.FromResult(request);
            }));
        host.Services.GetRequiredService<CiceroRuntime>().CreateRateLimiter(Tenant, new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        using var channel = RpcChannel.ForAddress(host.Address);
        var client = channel.CreateCallInvoker();

        Assert.Equal("first", await client.AsyncUnaryCall(Work, default, "first"));
        var call = client.AsyncUnaryCall(Work, default, "second");
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await call);

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Contains("rate_limited", ex.Status.Detail, StringComparison.Ordinal);
        Assert.Equal("rate_limited", call.GetTrailers().GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(1, handled);
    }

    [Fact]
    public async Task Malformed_and_oversized_context_headers_are_invalid_argument()
    {
        var handled = 0;
        await using var host = await StartAsync(isEntryPoint: false, _ => Interlocked.Increment(ref handled));
        using var channel = RpcChannel.ForAddress(host.Address);
        var client = channel.CreateCallInvoker();

        var garbage = new Metadata().Add(CiceroMetadataKeys.Context, [0x01, 0xFF, 0x00, 0x13]);
        var malformed = await Assert.ThrowsAsync<RpcException>(async () => await client.AsyncUnaryCall(Work, new CallOptions(garbage), "x"));
        Assert.Equal(StatusCode.InvalidArgument, malformed.StatusCode);
        Assert.Contains("malformed", malformed.Status.Detail, StringComparison.Ordinal);

        var huge = new Metadata().Add(CiceroMetadataKeys.Context, new byte[4096]);
        var oversized = await Assert.ThrowsAsync<RpcException>(async () => await client.AsyncUnaryCall(Work, new CallOptions(huge), "x"));
        Assert.Equal(StatusCode.InvalidArgument, oversized.StatusCode);
        Assert.Contains("4096 bytes", oversized.Status.Detail, StringComparison.Ordinal);

        Assert.Equal(0, handled);
    }

    [Fact]
    public async Task Entry_point_ignores_client_supplied_context_unless_told_to_trust_it()
    {
        var seen = new List<RequestContext>();
        var forged = Forge();

        await using (var entry = await StartAsync(isEntryPoint: true, seen.Add))
        {
            using var channel = RpcChannel.ForAddress(entry.Address);
            await channel.CreateCallInvoker().AsyncUnaryCall(Work, new CallOptions(forged), "x");
        }

        await using (var trusting = await StartAsync(isEntryPoint: true, seen.Add, trust: true))
        {
            using var channel = RpcChannel.ForAddress(trusting.Address);
            await channel.CreateCallInvoker().AsyncUnaryCall(Work, new CallOptions(forged), "x");
        }

        // Default: the classifier's workflow, nothing done before arrival, no forged deadline.
        Assert.Equal(Tenant, seen[0].Workflow.Value);
        Assert.Equal(ProgressDelta.Zero, seen[0].BeforeArrival);
        Assert.Null(seen[0].Deadline);

        // Opted in: the client's context is taken as sent.
        Assert.Equal("forged", seen[1].Workflow.Value);
        Assert.Equal(5.0, seen[1].BeforeArrival.ServiceTime);
        Assert.Equal(TimeSpan.FromMinutes(10), seen[1].Deadline);
    }

    [Fact]
    public async Task Caller_id_travels_after_the_context_and_reaches_the_callee_model_and_a_bad_one_is_invalid_argument()
    {
        var handled = 0;
        await using var host = await StartAsync(isEntryPoint: false, _ => Interlocked.Increment(ref handled));
        using var channel = RpcChannel.ForAddress(host.Address);
        using var clientRuntime = new CiceroRuntime();
        foreach (var callerId in new[] { "upstream-7", "upstream-8", "upstream-7" })
        {
            var client = channel.CreateCallInvoker().Intercept(new CiceroClientInterceptor(clientRuntime, "svc", callerId));
            using (CiceroContext.Use(clientRuntime.StartRequest(Tenant)))
            {
                await client.AsyncUnaryCall(Work, default, "x");
            }
        }

        // Two distinct ids arrived with the contexts; without them the callee would know no caller at all (count 1).
        var runtime = host.Services.GetRequiredService<CiceroRuntime>();
        Assert.Equal(2, runtime.Model.Get(runtime.Registry.Resolve(Tenant)).CallerCount);

        var context = new RequestContextCodec(TimeProvider.System).Encode(RequestContext.Start(Tenant, TimeProvider.System));
        var spaced = new Metadata().Add(CiceroMetadataKeys.Context, [.. context, .. "bad caller"u8]);
        var error = await Assert.ThrowsAsync<RpcException>(async () => await channel.CreateCallInvoker().AsyncUnaryCall(Work, new CallOptions(spaced), "x"));
        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Contains("caller id", error.Status.Detail, StringComparison.Ordinal);
        Assert.Equal(3, handled);
    }

    [Fact]
    public void Client_interceptor_refuses_a_caller_id_that_cannot_travel()
    {
        using var runtime = new CiceroRuntime();

        var error = Assert.Throws<ArgumentException>(() => new CiceroClientInterceptor(runtime, "svc", "has space"));

        Assert.Contains("printable ASCII", error.Message, StringComparison.Ordinal);
    }

    private static Metadata Forge()
    {
        var codec = new RequestContextCodec(TimeProvider.System);
        var context = RequestContext.Create(
            "forged", TimeProvider.System.GetTimestamp(), TimeSpan.FromMinutes(10), new ProgressDelta(5.0, 100), ProgressDelta.Zero, new ProgressDelta(6.0, 120));
        return new Metadata().Add(CiceroMetadataKeys.Context, codec.Encode(context));
    }

    private static Task<TestHost> StartAsync(bool isEntryPoint, Action<RequestContext> onRequest, bool trust = false) => TestHost.StartAsync(
        s => s.AddCicero(o =>
        {
            o.ServiceName = "svc";
            o.IsEntryPoint = isEntryPoint;
            o.TrustIncomingContext = trust;
            o.Classifier = Classification.WorkflowClassifiers.Fixed(Tenant);
            o.RateExchange.RunControlLoop = false;
        }),
        app => app.MapGrpcUnary(Work, (string request, ServerCallContext context) =>
        {
            onRequest(CiceroContext.Current!);
            return Task.FromResult(request);
        }));
}
