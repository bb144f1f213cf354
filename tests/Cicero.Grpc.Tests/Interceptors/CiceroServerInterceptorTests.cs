// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Runtime;
using Microsoft.AspNetCore.Http;
using Xunit;

namespace Cicero.Grpc.Tests.Interceptors;

/// <summary>
/// The server interceptor's unary path called directly: the synchronous fast path (handler already done) and the
/// awaiting path (handler still running) must both admit, make the context ambient, write the result trailer, and turn
/// a handler's <see cref="RequestDroppedException"/> into RESOURCE_EXHAUSTED.
/// </summary>
public sealed class CiceroServerInterceptorTests : IDisposable
{
    private readonly CiceroRuntime _runtime = new();
    private readonly CiceroServerInterceptor _interceptor;

    public CiceroServerInterceptorTests()
    {
        var options = new CiceroGrpcOptions
        {
            ServiceName = "svc",
            InstanceId = "svc-1",
            Classifier = WorkflowClassifiers.Fixed("tenant-a"),
        };
        _interceptor = new CiceroServerInterceptor(_runtime, options, new CiceroInstance(options, null!));
    }

    public void Dispose() => _runtime.Dispose();

    [Fact]
    public async Task Unary_HandlerDoneAtOnce_SeesContextAndGetsTrailer_AndContextDoesNotLeakToCaller()
    {
        var call = NewCall();
        RequestContext? seen = null;

        var response = _interceptor.UnaryServerHandler("ping", call, (request, _) =>
        {
            seen = CiceroContext.Current;
            return Task.FromResult(request + "!");
        });

        Assert.True(response.IsCompletedSuccessfully);
        Assert.Null(CiceroContext.Current);
        Assert.Equal("ping!", await response);
        Assert.Equal("tenant-a", seen?.Workflow.Value);
        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out var result));
        Assert.Equal("svc-1", result.Instance);
        Assert.Equal(0, _interceptor.InFlight);
    }

    [Fact]
    public async Task Unary_HandlerStillRunning_KeepsContextAcrossItsAwaits_AndWritesTrailerWhenItEnds()
    {
        var call = NewCall();
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        RequestContext? afterAwait = null;

        var response = _interceptor.UnaryServerHandler("ping", call, async (request, _) =>
        {
            await release.Task;
            afterAwait = CiceroContext.Current;
            return request;
        });

        Assert.False(response.IsCompleted);
        Assert.Equal(1, _interceptor.InFlight);
        Assert.False(CiceroTrailers.TryRead(call.ResponseTrailers, out _));
        release.SetResult();
        Assert.Equal("ping", await response);
        Assert.Equal("tenant-a", afterAwait?.Workflow.Value);
        Assert.True(CiceroTrailers.TryRead(call.ResponseTrailers, out _));
        Assert.Equal(0, _interceptor.InFlight);
    }

    [Fact]
    public async Task Unary_HandlerDropsSynchronously_IsResourceExhaustedWithReason()
    {
        var call = NewCall();

        var ex = await Assert.ThrowsAsync<RpcException>(() => _interceptor.UnaryServerHandler<string, string>(
            "ping", call, (_, _) => throw new RequestDroppedException(DropReason.QueueFull, "disk")));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal(DropReasonNames.ToWire(DropReason.QueueFull), ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(0, _interceptor.InFlight);
        Assert.Null(CiceroContext.Current);
    }

    [Fact]
    public async Task Unary_HandlerDropsAfterAwaiting_IsResourceExhaustedWithReason()
    {
        var call = NewCall();

        var ex = await Assert.ThrowsAsync<RpcException>(() => _interceptor.UnaryServerHandler<string, string>("ping", call, async (_, _) =>
        {
            await Task.Yield();
            throw new RequestDroppedException(DropReason.DeadlineInfeasible);
        }));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal(DropReasonNames.ToWire(DropReason.DeadlineInfeasible), ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(0, _interceptor.InFlight);
    }

    [Fact]
    public async Task Unary_HandlerFails_EndsTheCallAndRethrows()
    {
        var call = NewCall();

        await Assert.ThrowsAsync<InvalidOperationException>(() => _interceptor.UnaryServerHandler<string, string>(
            "ping", call, (_, _) => throw new InvalidOperationException("boom")));

        Assert.Equal(0, _interceptor.InFlight);
        Assert.Null(CiceroContext.Current);
    }

    private static ServerCallContext NewCall() =>
        new(new DefaultHttpContext(), "/svc/Method", MethodType.Unary, new Metadata(), null, CancellationToken.None);
}
