// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Benchmarks.Protocol;
using Cicero.Grpc;
using Grpc.Core;

namespace Cicero.Benchmarks;

/// <summary>The benchmark servers' service: echoes the payload, after spinning for the configured handler work.</summary>
internal sealed class EchoService(EchoServerSettings settings) : Echo.EchoBase
{
    public override Task<EchoReply> Echo(EchoRequest request, ServerCallContext context)
    {
        settings.OnCall();
        if (settings.WireTrailer is { } trailer)
        {
            context.ResponseTrailers.Add(CiceroMetadataKeys.Result, trailer);
        }

        Work(settings.HandlerWork);
        return Task.FromResult(new EchoReply { Payload = request.Payload });
    }

    // Busy on purpose: the handler stands for CPU-bound work of a given length, not for waiting.
    private static void Work(TimeSpan duration)
    {
        if (duration <= TimeSpan.Zero)
        {
            return;
        }

        var start = Stopwatch.GetTimestamp();
        while (Stopwatch.GetElapsedTime(start) < duration)
        {
            Thread.SpinWait(20);
        }
    }
}
