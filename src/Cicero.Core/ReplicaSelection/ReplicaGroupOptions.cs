// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>Options of a <see cref="ReplicaGroup"/>.</summary>
public sealed class ReplicaGroupOptions
{
    /// <summary>
    /// The first back-off of a replica that refused a call, doubling up to <see cref="DefaultMaxBackoff"/>: also the
    /// live runner's gRPC reconnect back-off, so that live and simulated runs retry a dead instance alike.
    /// </summary>
    public static readonly TimeSpan DefaultInitialBackoff = TimeSpan.FromMilliseconds(250);

    /// <summary>The longest back-off of a replica that keeps refusing calls.</summary>
    public static readonly TimeSpan DefaultMaxBackoff = TimeSpan.FromSeconds(5);

    /// <summary>Gets or sets the most requests that may wait in the backlog; beyond it a request fails at once.</summary>
    /// <value>1024.</value>
    public int MaxBacklog { get; set; } = 1024;

    /// <summary>
    /// Gets or sets this process's own replica id, if it is one of the group's replicas (Wu's local fast path: a
    /// coordinator that holds the data serves the request itself).
    /// </summary>
    /// <value><see langword="null"/>.</value>
    public string? LocalReplicaId { get; set; }

    /// <summary>
    /// Gets or sets a value indicating whether requests go to the local replica directly, without the selector, the
    /// rate limiters or the backlog, when it is in the group and up.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool ServeLocally { get; set; }

    /// <summary>Gets or sets a value indicating whether a released waiter's continuation runs on the thread pool.</summary>
    /// <value><see langword="true"/>; turn off only in single-threaded simulations.</value>
    public bool RunContinuationsAsynchronously { get; set; } = true;

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(MaxBacklog, nameof(MaxBacklog));
        if (ServeLocally && string.IsNullOrWhiteSpace(LocalReplicaId))
        {
            throw new ArgumentException("ServeLocally needs LocalReplicaId: the id of this process's own replica.", nameof(LocalReplicaId));
        }
    }
}
