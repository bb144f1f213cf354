// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Time;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>
/// Inputs the server-path fuzzer found answered with UNKNOWN or refused one hop later, kept as regressions of the
/// interceptor. (Timeouts past the longest timer were the private transport's; grpc-dotnet parses them now.)
/// </summary>
public sealed class ServerPathRegressionTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    [InlineData(-3_600_000)]
    public async Task DeadlinePassedBeforeAdmission_IsDeadlineExceededAndDoesNoWork(int millisecondsLeft)
    {
        // Was UNKNOWN: the interceptor clamped δ to zero, which a request context refuses.
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromHours(2));
        var handled = 0;
        using var cicero = new CiceroServices(o => o.Classifier = WorkflowClassifiers.Fixed("w"), clock);
        var call = new TestServerCallContext("/cicero.test.Probe/Join", clock.GetUtcNow().UtcDateTime.AddMilliseconds(millisecondsLeft));

        var ex = await Assert.ThrowsAsync<RpcException>(() => cicero.Interceptor.ClientStreamingServerHandler<string, string>(
            new ListReader<string>("x"),
            call,
            (_, _) =>
            {
                handled++;
                return Task.FromResult("done");
            }));

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.Equal("deadline_expired", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(0, handled);
        Assert.Equal(0, cicero.Interceptor.InFlight);
        Assert.Equal(1, cicero.Runtime.Registry.Count);
    }

    [Fact]
    public async Task EntryPointWithATwoDayDeadline_WritesAContextDownstreamServicesAccept()
    {
        // Was INVALID_ARGUMENT one hop later: δ = 2 days went on the wire, past the readers' 1-day limit.
        var clock = new VirtualTimeProvider();
        clock.Advance(TimeSpan.FromHours(1));
        byte[]? written = null;
        using var cicero = new CiceroServices(o => o.Classifier = WorkflowClassifiers.Fixed("w"), clock);

        await cicero.Interceptor.UnaryServerHandler("x", new TestServerCallContext(deadline: clock.GetUtcNow().UtcDateTime.AddHours(48)), (string request, ServerCallContext _) =>
        {
            written = cicero.Runtime.Codec.Encode(CiceroContext.Current!.ForDownstreamCall());
            return Task.FromResult(request);
        });

        var downstream = new RequestContextCodec(TimeProvider.System);
        Assert.True(downstream.TryRead(written, out var context, out var error), error);
        Assert.Equal(new RequestContextCodecOptions().MaxDuration, context.Deadline);
    }
}
