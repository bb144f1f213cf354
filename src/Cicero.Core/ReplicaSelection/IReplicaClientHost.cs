// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// What a <see cref="ReplicaClientEngine{TRequest}"/> asks of its host: send a request, fail one, and call the engine
/// back at a time. The engine calls these from inside its own methods, on the host's thread (or under its lock).
/// </summary>
/// <typeparam name="TRequest">The host's request (a simulated call, a waiter, ...).</typeparam>
public interface IReplicaClientHost<in TRequest>
{
    /// <summary>A request left the engine for a replica. The host reports the send itself (<see cref="ReplicaClientEngine{TRequest}.OnSent(int, long)"/>) when it happens.</summary>
    /// <param name="request">The request.</param>
    /// <param name="replica">The replica's index in <see cref="ReplicaClientEngine{TRequest}.Replicas"/>.</param>
    /// <param name="isLocal">Whether it is this process's own replica, served without the selector (the local fast path).</param>
    void Dispatch(TRequest request, int replica, bool isLocal);

    /// <summary>No replica can take the request (every one down, or the backlog full).</summary>
    /// <param name="request">The request.</param>
    /// <param name="reason">Why, for the caller's error.</param>
    void Fail(TRequest request, string reason);

    /// <summary>Call <see cref="ReplicaClientEngine{TRequest}.OnRetryTimer(int, long)"/> for <paramref name="group"/> at <paramref name="due"/>.</summary>
    /// <param name="group">The group whose backlog waits for a replica's rate.</param>
    /// <param name="due">When, as a timestamp of the engine's clock.</param>
    void ScheduleRetry(int group, long due);

    /// <summary>Call <see cref="ReplicaClientEngine{TRequest}.OnBackoffEnd(int, long)"/> for <paramref name="replica"/> at <paramref name="due"/>.</summary>
    /// <param name="replica">The replica that refused a call.</param>
    /// <param name="due">When, as a timestamp of the engine's clock.</param>
    void ScheduleBackoffEnd(int replica, long due);
}
