// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>A request stream of fixed messages, for driving streaming interceptors without a server.</summary>
internal sealed class ListReader<T>(params T[] messages) : IAsyncStreamReader<T>
{
    private int _next = -1;

    public T Current => messages[_next];

    public Task<bool> MoveNext(CancellationToken cancellationToken) => Task.FromResult(++_next < messages.Length);
}

/// <summary>A response stream that keeps what the handler wrote.</summary>
internal sealed class ListWriter<T> : IServerStreamWriter<T>
{
    public List<T> Written { get; } = [];

    public WriteOptions? WriteOptions { get; set; }

    public Task WriteAsync(T message)
    {
        Written.Add(message);
        return Task.CompletedTask;
    }
}
