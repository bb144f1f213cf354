// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics.CodeAnalysis;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// For simulation only: a selector that is told each server's true queue length and service time (C3 paper §5's
/// "oracle") and picks the replica with the least expected wait, (queue length + outstanding + 1) × service time.
/// </summary>
/// <remarks>
/// The simulator calls <see cref="SetTruth"/> whenever a server's queue or service time changes. A replica it has not
/// been told about costs 0, so it is tried. Ties go to the first tied replica at or after the one following the previous
/// pick, so equal replicas take turns. Responses teach it nothing, so feedback is ignored. O(n) per choice; no
/// allocation once each replica has a truth. Single-threaded by contract: the replica-group engine (or the
/// simulator's event loop) calls it, and <see cref="SetTruth"/>, from one thread.
/// </remarks>
public sealed class OracleSelector : IReplicaSelector
{
    private int _next;

    /// <summary>Creates a factory under the name <see cref="ReplicaSelectorNames.Oracle"/>.</summary>
    /// <returns>The factory; cast what it creates to <see cref="OracleSelector"/> to feed it the truth.</returns>
    public static ReplicaSelectorFactory CreateFactory() =>
        new DelegateReplicaSelectorFactory(ReplicaSelectorNames.Oracle, static _ => new OracleSelector());

    /// <summary>Tells the selector a server's true state.</summary>
    /// <param name="replica">The client's view of the server.</param>
    /// <param name="queueLength">The requests waiting at the server.</param>
    /// <param name="serviceTimeSeconds">The server's current mean service time, in seconds.</param>
    /// <exception cref="ArgumentOutOfRangeException">A value is negative or not finite.</exception>
    [SuppressMessage("Performance", "CA1822:Mark members as static", Justification = "The truth is told to one oracle, as part of its API.")]
    public void SetTruth(ReplicaState replica, double queueLength, double serviceTimeSeconds)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (!(queueLength >= 0) || !double.IsFinite(queueLength))
        {
            throw new ArgumentOutOfRangeException(nameof(queueLength), queueLength, "The queue length must be a non-negative number.");
        }

        if (!(serviceTimeSeconds >= 0) || !double.IsFinite(serviceTimeSeconds))
        {
            throw new ArgumentOutOfRangeException(nameof(serviceTimeSeconds), serviceTimeSeconds, "The service time must be a non-negative number of seconds.");
        }

        if (replica.SelectorState is not Truth truth)
        {
            truth = new Truth();
            replica.SelectorState = truth;
        }

        truth.QueueLength = queueLength;
        truth.ServiceTime = serviceTimeSeconds;
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now) =>
        ReplicaSelectorShared.ChooseCheapestRotating(replicas, ref _next, default(TrueWaitCost));

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => ArgumentNullException.ThrowIfNull(replica);

    private static double Cost(ReplicaState replica) =>
        replica.SelectorState is Truth truth ? (truth.QueueLength + Math.Max(replica.Outstanding, 0) + 1) * truth.ServiceTime : 0;

    private sealed class Truth
    {
        public double QueueLength { get; set; }

        public double ServiceTime { get; set; }
    }

    private readonly struct TrueWaitCost : IReplicaCost
    {
        public double Of(ReplicaState replica) => Cost(replica);
    }
}
