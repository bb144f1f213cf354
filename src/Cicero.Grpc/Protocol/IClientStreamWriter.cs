// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>A client's request stream: writes, then <see cref="CompleteAsync"/> to end it.</summary>
/// <typeparam name="T">The message type.</typeparam>
public interface IClientStreamWriter<in T> : IAsyncStreamWriter<T>
{
    /// <summary>Ends the request stream.</summary>
    /// <returns>Completes when the end is handed to the transport.</returns>
    Task CompleteAsync();
}
