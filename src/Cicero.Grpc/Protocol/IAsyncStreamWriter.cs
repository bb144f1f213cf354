// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>Writes a stream of messages; one write at a time.</summary>
/// <typeparam name="T">The message type.</typeparam>
public interface IAsyncStreamWriter<in T>
{
    /// <summary>Writes a message.</summary>
    /// <param name="message">The message.</param>
    /// <param name="cancellationToken">Cancels the write.</param>
    /// <returns>Completes when the message is handed to the transport.</returns>
    Task WriteAsync(T message, CancellationToken cancellationToken = default);
}
