// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>Options of a <see cref="ReplicaClientEngine{TRequest}"/>.</summary>
internal sealed class ReplicaClientEngineOptions
{
    /// <summary>Gets or sets the first back-off of a replica that refused a call.</summary>
    /// <value><see cref="ReplicaGroupOptions.DefaultInitialBackoff"/>.</value>
    public TimeSpan InitialBackoff { get; set; } = ReplicaGroupOptions.DefaultInitialBackoff;

    /// <summary>Gets or sets the longest back-off.</summary>
    /// <value><see cref="ReplicaGroupOptions.DefaultMaxBackoff"/>.</value>
    public TimeSpan MaxBackoff { get; set; } = ReplicaGroupOptions.DefaultMaxBackoff;

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
