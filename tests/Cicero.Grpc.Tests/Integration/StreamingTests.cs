// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Grpc.Tests.Protos;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Integration;

public sealed class StreamingTests
{
    [Fact]
    public async Task Streaming_calls_run_in_the_request_context_and_end_with_cicero_trailers()
    {
        await using var host = await TestHost.StartProbeAsync(
            o => o.Classifier = WorkflowClassifiers.Fixed("streamer"),
            new ProbeHandlers
            {
                Split = async (request, responses, _) =>
                {
                    CiceroContext.Current!.Progress.AddLocalWork(0.5, 2);
                    await responses.WriteAsync(ProbeHandlers.Of(CiceroContext.Current.Workflow.Value));
                    await responses.WriteAsync(request);
                },
                Join = async (requests, _) =>
                {
                    var count = 0;
                    while (await requests.MoveNext())
                    {
                        count++;
                        CiceroContext.Current!.Progress.AddLocalWork(0.125, 1);
                    }

                    return ProbeHandlers.Of($"{CiceroContext.Current!.Workflow.Value}:{count}");
                },
                Echo = async (requests, responses, _) =>
                {
                    while (await requests.MoveNext())
                    {
                        CiceroContext.Current!.Progress.AddLocalWork(0.25, 1);
                        await responses.WriteAsync(ProbeHandlers.Of(CiceroContext.Current.Workflow.Value));
                    }
                },
            });
        using var channel = host.CreateChannel();
        var client = TestHost.Client(channel);

        using var split = client.Split(ProbeHandlers.Of("x"));
        var received = new List<string>();
        while (await split.ResponseStream.MoveNext(CancellationToken.None))
        {
            received.Add(split.ResponseStream.Current.Value);
        }

        Assert.Equal(["streamer", "x"], received);
        Assert.True(CiceroTrailers.TryReadProgress(split.GetTrailers(), out var progress));
        Assert.Equal(new ProgressDelta(0.5, 2), progress);

        using var join = client.Join();
        for (var i = 0; i < 3; i++)
        {
            await join.RequestStream.WriteAsync(ProbeHandlers.Of("m"));
        }

        await join.RequestStream.CompleteAsync();
        Assert.Equal("streamer:3", (await join).Value);
        Assert.True(CiceroTrailers.TryReadProgress(join.GetTrailers(), out var joinProgress));
        Assert.Equal(new ProgressDelta(0.375, 3), joinProgress);

        using var echo = client.Echo();
        for (var i = 0; i < 4; i++)
        {
            await echo.RequestStream.WriteAsync(ProbeHandlers.Of("m"));
            Assert.True(await echo.ResponseStream.MoveNext(CancellationToken.None));
            Assert.Equal("streamer", echo.ResponseStream.Current.Value);
        }

        await echo.RequestStream.CompleteAsync();
        Assert.False(await echo.ResponseStream.MoveNext(CancellationToken.None));
        Assert.True(CiceroTrailers.TryRead(echo.GetTrailers(), out var result));
        Assert.Equal(new ProgressDelta(1.0, 4), result.Progress);
        Assert.Equal(0, host.Services.GetRequiredService<Server.CiceroServerInterceptor>().InFlight);
    }
}
