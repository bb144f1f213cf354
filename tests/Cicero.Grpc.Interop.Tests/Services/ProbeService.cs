// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Context;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Runtime;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>
/// The probe service, the same code under a Cicero server and a plain grpc-dotnet one. It reports what it saw of the
/// call (compression, Cicero's header, a deadline) so the tests can check what crossed the wire.
/// </summary>
public sealed class ProbeService(ProbeState state, IServiceProvider services) : Probe.ProbeBase
{
    /// <summary>The resource guarded calls take a permit of.</summary>
    public const string Resource = "db";

    /// <inheritdoc />
    public override async Task<EchoReply> Echo(EchoRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);
        state.Enter();
        try
        {
            var delay = state.ExtraDelay + TimeSpan.FromMilliseconds(request.DelayMs);
            // Service time, not synchronization: the tests measure how a slow server is treated. Task.Delay runs on .NET's
            // coarse timer clock and may end several milliseconds early by the precise one a server's service time is
            // measured with, so the rest is waited out.
            var started = Stopwatch.GetTimestamp();
            for (var left = delay; left > TimeSpan.Zero; left = delay - Stopwatch.GetElapsedTime(started))
            {
                await Task.Delay(left < TimeSpan.FromMilliseconds(1) ? TimeSpan.FromMilliseconds(1) : left, context.CancellationToken);
            }

            return Reply(request.Payload, context);
        }
        finally
        {
            state.Exit();
        }
    }

    /// <inheritdoc />
    public override async Task<EchoReply> Hold(HoldRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        state.HoldStarted.Release();
        try
        {
            await Task.Delay(Timeout.Infinite, context.CancellationToken);
        }
        catch (OperationCanceledException)
        {
            state.HoldCancelled.Release();
            throw;
        }

        return Reply(ByteString.Empty, context);
    }

    /// <inheritdoc />
    public override async Task<EchoReply> Guarded(HoldRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        var runtime = services.GetRequiredService<CiceroRuntime>();
        var current = CiceroContext.Current ?? throw new RpcException(new Status(StatusCode.FailedPrecondition, "No Cicero request context."));
        using var lease = await runtime.GetResource(Resource).AcquireAsync(current, cancellationToken: context.CancellationToken);
        if (!lease.IsAcquired)
        {
            throw new RequestDroppedException(lease.RejectionReason, $"resource '{Resource}'");
        }

        state.GuardedAcquired.Release();
        await state.ReleaseGuarded.Task.WaitAsync(context.CancellationToken);
        return Reply(ByteString.Empty, context);
    }

    /// <inheritdoc />
    public override async Task Stream(StreamRequest request, IServerStreamWriter<EchoReply> responseStream, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(responseStream);
        for (var i = 0; i < request.Count; i++)
        {
            await responseStream.WriteAsync(Reply(Payloads.Create(request.Size, i), context), context.CancellationToken);
        }
    }

    private static EchoReply Reply(ByteString payload, ServerCallContext context)
    {
        var http = context.GetHttpContext();
        return new EchoReply
        {
            Payload = payload,
            Port = http.Connection.LocalPort,
            RequestCompressed = string.Equals(http.Request.Headers["grpc-encoding"], "gzip", StringComparison.Ordinal),
            SawCiceroContext = http.Request.Headers.ContainsKey(CiceroMetadataKeys.Context),
            HadDeadline = context.Deadline != DateTime.MaxValue,
        };
    }
}
