// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>
/// Told by the transport when one call ends, with its status and trailers, so an interceptor can finish its
/// accounting without wrapping the call's tasks in state machines of its own.
/// </summary>
/// <remarks>
/// Travels in <see cref="CallOptions"/> to the transport. A transport that supports it calls <see cref="Attach"/>
/// while the call is being created and <see cref="OnCallCompleted"/> exactly once when the call ends; an interceptor
/// that finds it not attached after its continuation returned (another transport, a test double) must track the call
/// itself.
/// </remarks>
internal abstract class CallCompletionObserver
{
    private int _attached;

    /// <summary>Gets whether a transport took the observer.</summary>
    public bool IsAttached => Volatile.Read(ref _attached) != 0;

    /// <summary>Called by the transport when it creates the call.</summary>
    public void Attach() => Volatile.Write(ref _attached, 1);

    /// <summary>Called by the transport once, when the call ended.</summary>
    /// <param name="status">The call's status.</param>
    /// <param name="trailers">Its trailers (empty when none arrived).</param>
    public abstract void OnCallCompleted(RpcStatus status, Metadata trailers);
}
