// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>Reads a stream of messages, one at a time.</summary>
/// <typeparam name="T">The message type.</typeparam>
public interface IAsyncStreamReader<out T>
{
    /// <summary>Gets the message read by the last successful <see cref="MoveNext"/>.</summary>
    T Current { get; }

    /// <summary>Reads the next message.</summary>
    /// <param name="cancellationToken">Cancels the read.</param>
    /// <returns><see langword="true"/> when a message was read; <see langword="false"/> at the end of the stream.</returns>
    Task<bool> MoveNext(CancellationToken cancellationToken = default);
}
