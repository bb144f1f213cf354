// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>Creates a replica selector; registered and looked up by <see cref="Name"/> ("c3", "round-robin", ...).</summary>
public abstract class ReplicaSelectorFactory
{
    /// <summary>Gets the configuration name.</summary>
    public abstract string Name { get; }

    /// <summary>Creates a selector for one client's replica groups.</summary>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    /// <returns>A new selector.</returns>
    public abstract IReplicaSelector Create(long timestampFrequency);
}
