// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.Text;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Time;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>Inputs the server-path fuzzer found answered with UNKNOWN (an exception inside Cicero), kept as regressions.</summary>
public sealed class ServerPathRegressionTests
{
    private static readonly TimeSpan Watchdog = TimeSpan.FromSeconds(5);

    [Theory]
    [InlineData("99999999H")]
    [InlineData("54826657M")]
    [InlineData("99999999S")]
    public async Task HandleAsync_TimeoutPastTheLongestTimer_IsCappedAndServed(string timeout)
    {
        // Was UNKNOWN: CancelAfter refuses delays past about 49.7 days, and now + 11,000 years overflows DateTimeOffset.
        var clock = new VirtualTimeProvider();
        DateTimeOffset? deadline = null;
        using var server = new InProcessServer(o => o.Classifier = WorkflowClassifiers.Fixed("w"), clock);
        var handler = server.Map(TestMethods.Unary(), new UnaryServerMethod<string, string>((request, context) =>
        {
            deadline = context.Deadline;
            return Task.FromResult(request);
        }));

        var outcome = await InProcessCall.RunAsync(handler.HandleAsync, Request(timeout, Frame("x")), Watchdog);

        Assert.Equal(StatusCode.OK, outcome.Status);
        Assert.Equal(clock.GetUtcNow() + TimeSpan.FromMilliseconds(uint.MaxValue - 1), deadline);
    }

    [Theory]
    [InlineData("0n")]
    [InlineData("1n")]
    [InlineData("0S")]
    public async Task HandleAsync_DeadlinePassedBeforeAdmission_IsDeadlineExceededAndDoesNoWork(string timeout)
    {
        // Was UNKNOWN: the interceptor clamped δ to zero, which a request context refuses. Client streaming admits
        // before it reads, and the virtual clock makes δ exactly zero at admission.
        var clock = new VirtualTimeProvider();
        var handled = 0;
        using var server = new InProcessServer(o => o.Classifier = WorkflowClassifiers.Fixed("w"), clock);
        var handler = server.Map(TestMethods.ClientStreaming(), new ClientStreamingServerMethod<string, string>((requests, context) =>
        {
            handled++;
            return Task.FromResult("done");
        }));

        var outcome = await InProcessCall.RunAsync(handler.HandleAsync, Request(timeout, Frame("x")), Watchdog);

        Assert.Equal(StatusCode.DeadlineExceeded, outcome.Status);
        Assert.Equal(0, handled);
        Assert.Equal(0, server.Interceptor.InFlight);
        Assert.Equal(1, server.Runtime.Registry.Count);
    }

    [Fact]
    public async Task HandleAsync_EntryPointWithATwoDayTimeout_WritesAContextDownstreamServicesAccept()
    {
        // Was INVALID_ARGUMENT one hop later: δ = 2 days went on the wire, past the readers' 1-day limit.
        byte[]? written = null;
        using var server = new InProcessServer(o => o.Classifier = WorkflowClassifiers.Fixed("w"));
        var handler = server.Map(TestMethods.Unary(), new UnaryServerMethod<string, string>((request, context) =>
        {
            written = server.Runtime.Codec.Encode(CiceroContext.Current!.ForDownstreamCall());
            return Task.FromResult(request);
        }));

        var outcome = await InProcessCall.RunAsync(handler.HandleAsync, Request("48H", Frame("x")), Watchdog);

        Assert.Equal(StatusCode.OK, outcome.Status);
        var downstream = new RequestContextCodec(TimeProvider.System);
        Assert.True(downstream.TryRead(written, out var context, out var error), error);
        Assert.Equal(new RequestContextCodecOptions().MaxDuration, context.Deadline);
    }

    private static InProcessRequest Request(string timeout, byte[] body)
    {
        var request = new InProcessRequest { Body = body };
        request.Headers.Add(new(GrpcProtocol.TimeoutHeader, timeout));
        return request;
    }

    private static byte[] Frame(string message)
    {
        var payload = Encoding.UTF8.GetBytes(message);
        var frame = new byte[FrameBuffer.HeaderLength + payload.Length];
        BinaryPrimitives.WriteUInt32BigEndian(frame.AsSpan(1), (uint)payload.Length);
        payload.CopyTo(frame, FrameBuffer.HeaderLength);
        return frame;
    }
}
