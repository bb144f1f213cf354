// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Tests.Protos;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>
/// What a test's <see cref="ProbeService"/> does, one delegate per method; register it as a singleton. Unset methods
/// echo: Work returns its input, Split streams it twice, Join concatenates, Echo streams every message back.
/// </summary>
internal sealed class ProbeHandlers
{
    public Func<Text, ServerCallContext, Task<Text>> Work { get; init; } = static (request, _) => Task.FromResult(request);

    public Func<Text, IServerStreamWriter<Text>, ServerCallContext, Task> Split { get; init; } = static async (request, responses, _) =>
    {
        await responses.WriteAsync(request);
        await responses.WriteAsync(request);
    };

    public Func<IAsyncStreamReader<Text>, ServerCallContext, Task<Text>> Join { get; init; } = static async (requests, _) =>
    {
        var joined = new System.Text.StringBuilder();
        while (await requests.MoveNext())
        {
            joined.Append(requests.Current.Value);
        }

        return new Text { Value = joined.ToString() };
    };

    public Func<IAsyncStreamReader<Text>, IServerStreamWriter<Text>, ServerCallContext, Task> Echo { get; init; } = static async (requests, responses, _) =>
    {
        while (await requests.MoveNext())
        {
            await responses.WriteAsync(requests.Current);
        }
    };

    public static Text Of(string value) => new() { Value = value };
}
