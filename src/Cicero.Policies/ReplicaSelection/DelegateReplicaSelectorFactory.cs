// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>A replica-selector factory from a name and a creation function; for built-ins and simple custom selectors.</summary>
/// <param name="name">The configuration name.</param>
/// <param name="create">Creates a selector given the timestamp frequency of the clock passed as <c>now</c>.</param>
public sealed class DelegateReplicaSelectorFactory(string name, Func<long, IReplicaSelector> create) : ReplicaSelectorFactory
{
    private readonly Func<long, IReplicaSelector> _create = create ?? throw new ArgumentNullException(nameof(create));

    /// <inheritdoc />
    public override string Name { get; } = !string.IsNullOrWhiteSpace(name) ? name : throw new ArgumentException("A replica selector needs a name.", nameof(name));

    /// <inheritdoc />
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="timestampFrequency"/> is not positive.</exception>
    public override IReplicaSelector Create(long timestampFrequency)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        return _create(timestampFrequency);
    }
}
