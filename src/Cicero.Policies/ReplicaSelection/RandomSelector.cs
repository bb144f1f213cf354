// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>Uniform random choice among the replicas that are up, from an injected seeded source.</summary>
/// <remarks>
/// O(1) per choice while every replica is up, O(n) otherwise; no allocation. Single-threaded by contract: the
/// replica-group engine calls it under its lock, and the <see cref="Random"/> it holds is not thread-safe, so it must
/// not be shared with other users. It keeps no per-replica state, so feedback is ignored.
/// </remarks>
public sealed class RandomSelector : IReplicaSelector
{
    private readonly Random _random;

    /// <summary>Creates the selector with a source seeded with <paramref name="seed"/>.</summary>
    /// <param name="seed">The seed; the same seed gives the same choices.</param>
    public RandomSelector(int seed)
        : this(new Random(seed))
    {
    }

    /// <summary>Creates the selector with the given source, which it then owns.</summary>
    /// <param name="random">The random source (seeded, for repeatable runs).</param>
    public RandomSelector(Random random)
    {
        ArgumentNullException.ThrowIfNull(random);
        _random = random;
    }

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.Random"/>.</summary>
    /// <param name="seed">Seeds the source from which each created selector draws its own seed.</param>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreateFactory(int seed)
    {
        var seeds = new Random(seed);
        var gate = new Lock();
        return new DelegateReplicaSelectorFactory(ReplicaSelectorNames.Random, _ => new RandomSelector(ReplicaSelectorShared.NextRandom(seeds, gate)));
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        if (replicas.IsEmpty)
        {
            return ReplicaSelectorShared.EmptyGroup;
        }

        var up = ReplicaSelectorShared.CountUp(replicas);
        if (up == 0)
        {
            return ReplicaSelectorShared.AllDown;
        }

        var pick = _random.Next(up);
        return ReplicaChoice.Replica(up == replicas.Length ? pick : ReplicaSelectorShared.NthUp(replicas, pick));
    }

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => ArgumentNullException.ThrowIfNull(replica);
}
