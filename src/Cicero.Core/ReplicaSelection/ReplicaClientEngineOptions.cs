// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>Options of a <see cref="ReplicaClientEngine{TRequest}"/>.</summary>
public sealed class ReplicaClientEngineOptions
{
    /// <summary>
    /// The first back-off of a replica that refused a call, doubling up to <see cref="DefaultMaxBackoff"/>: also the
    /// live runner's gRPC reconnect back-off, so that live and simulated runs retry a dead instance alike.
    /// </summary>
    public static readonly TimeSpan DefaultInitialBackoff = TimeSpan.FromMilliseconds(250);

    /// <summary>The longest back-off of a replica that keeps refusing calls.</summary>
    public static readonly TimeSpan DefaultMaxBackoff = TimeSpan.FromSeconds(5);

    /// <summary>Gets or sets the first back-off of a replica that refused a call.</summary>
    /// <value><see cref="DefaultInitialBackoff"/>.</value>
    public TimeSpan InitialBackoff { get; set; } = DefaultInitialBackoff;

    /// <summary>Gets or sets the longest back-off.</summary>
    /// <value><see cref="DefaultMaxBackoff"/>.</value>
    public TimeSpan MaxBackoff { get; set; } = DefaultMaxBackoff;

    /// <summary>Gets or sets the most requests that may wait in one group's backlog; beyond it a request fails at once.</summary>
    /// <value><see cref="int.MaxValue"/>.</value>
    public int MaxBacklog { get; set; } = int.MaxValue;

    /// <summary>
    /// Gets or sets a value indicating whether a response, a released pick, a replica coming up or a retry timer
    /// releases the waiting requests at once. A host that releases them itself (one per group in turn, as
    /// <see cref="ReplicaGroupCoordinator"/> does) turns it off and calls
    /// <see cref="ReplicaClientEngine{TRequest}.TryReleaseOne(int, long, out TRequest, out int, out string)"/>.
    /// </summary>
    /// <value><see langword="true"/>.</value>
    public bool AutoRelease { get; set; } = true;

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(MaxBacklog, nameof(MaxBacklog));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(InitialBackoff, TimeSpan.Zero, nameof(InitialBackoff));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxBackoff, InitialBackoff, nameof(MaxBackoff));
    }
}
