// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using Cicero.Measurement;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// C3 replica selection (Suresh et al., NSDI '15; dissertation §4.2): replicas are ranked by the cubic score
/// Ψ = R − 1/μ̄ + q̂³/μ̄ with q̂ = 1 + os·n + q̄, and the request goes to the best-ranked replica that is within its
/// cubic rate limit; when none is, the request waits in the group's backlog (<see cref="ReplicaChoice.Backlog"/>).
/// </summary>
/// <remarks>
/// R, 1/μ̄ and q̄ are EWMAs of the response time seen by this client, the server's service time and its queue size,
/// all piggybacked on responses. A replica with no feedback yet scores 0, so it is tried first. Scores are in
/// milliseconds. Single-threaded by contract; per-replica state lives in <see cref="ReplicaState.SelectorState"/>.
/// </remarks>
public sealed class C3ReplicaSelector : IReplicaSelector, IBackpressureAware
{
    private const int StackLimit = 64;
    private readonly C3Options _options;
    private readonly long _frequency;

    /// <summary>Creates the selector.</summary>
    /// <param name="options">Score and rate options.</param>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    public C3ReplicaSelector(C3Options options, long timestampFrequency)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        options.Validate();
        _options = options;
        _frequency = timestampFrequency;
    }

    /// <summary>Creates a factory under the name "c3" (the simulations' name for the paper's algorithm).</summary>
    /// <param name="options">Options; the paper's defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreateFactory(C3Options? options = null)
    {
        options ??= new C3Options();
        options.Validate();
        return new Factory(ReplicaSelectorNames.C3, options);
    }

    /// <summary>Creates a factory under the name "c3-paper": the paper's algorithm as written, beside the default "c3".</summary>
    /// <param name="options">Options; the paper's defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreatePaperFactory(C3Options? options = null)
    {
        options ??= new C3Options();
        options.Validate();
        return new Factory(ReplicaSelectorNames.C3Paper, options);
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        if (replicas.IsEmpty)
        {
            return ReplicaChoice.Fail("The replica group is empty.");
        }

        int[]? rentedOrder = null;
        double[]? rentedScores = null;
        var order = replicas.Length <= StackLimit ? stackalloc int[replicas.Length] : (rentedOrder = ArrayPool<int>.Shared.Rent(replicas.Length));
        var scores = replicas.Length <= StackLimit ? stackalloc double[replicas.Length] : (rentedScores = ArrayPool<double>.Shared.Rent(replicas.Length));
        try
        {
            // Insertion sort by score (ties keep index order): groups are small, typically 3 replicas.
            var alive = 0;
            for (var i = 0; i < replicas.Length; i++)
            {
                if (replicas[i].IsDown)
                {
                    continue;
                }

                var score = Score(replicas[i]);
                var at = alive++;
                while (at > 0 && scores[at - 1] > score)
                {
                    scores[at] = scores[at - 1];
                    order[at] = order[at - 1];
                    at--;
                }

                scores[at] = score;
                order[at] = i;
            }

            if (alive == 0)
            {
                return ReplicaChoice.Fail($"All {replicas.Length} replicas of the group are down.");
            }

            for (var i = 0; i < alive; i++)
            {
                if (StatsOf(replicas[order[i]], now).Rate.HasToken(now))
                {
                    return ReplicaChoice.Replica(order[i]);
                }
            }

            return ReplicaChoice.Backlog;
        }
        finally
        {
            if (rentedOrder is not null)
            {
                ArrayPool<int>.Shared.Return(rentedOrder);
                ArrayPool<double>.Shared.Return(rentedScores!);
            }
        }
    }

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        StatsOf(replica, now).Rate.TryConsume(now);
    }

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (feedback.Failed)
        {
            return;
        }

        var stats = StatsOf(replica, now);
        stats.ResponseTime.Update(feedback.ResponseTime.TotalMilliseconds);
        stats.ServiceTime.Update(feedback.ServiceTime.TotalMilliseconds);
        stats.QueueSize.Update(Math.Max(0, feedback.QueueSize));
        stats.HasFeedback = true;
        stats.Rate.OnResponse(now, feedback.ResponseTime);
    }

    /// <summary>Gets a replica's score Ψ in milliseconds; lower is better; 0 before any feedback.</summary>
    /// <param name="replica">The replica.</param>
    /// <returns>Ψ = R − 1/μ̄ + q̂^b/μ̄.</returns>
    internal double Score(ReplicaState replica)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (replica.SelectorState is not C3Stats { HasFeedback: true } stats)
        {
            return 0;
        }

        var serviceTime = stats.ServiceTime.Value;
        var queueEstimate = 1 + (replica.Outstanding * _options.ClientCount) + stats.QueueSize.Value;
        var penalty = _options.ScoreExponent == 3 ? queueEstimate * queueEstimate * queueEstimate : Math.Pow(queueEstimate, _options.ScoreExponent);
        return stats.ResponseTime.Value - serviceTime + (penalty * serviceTime);
    }

    /// <summary>Gets a replica's rate controller (created on first use).</summary>
    /// <param name="replica">The replica.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>The controller.</returns>
    public CubicRateController GetRateController(ReplicaState replica, long now) => StatsOf(replica, now).Rate;

    /// <summary>Gets how long until some live replica of the group is within its rate (for waking the backlog).</summary>
    /// <param name="replicas">The group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>The wait in timestamps, or <see langword="null"/> if every replica is down.</returns>
    long? IBackpressureAware.TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        long? best = null;
        foreach (var replica in replicas)
        {
            if (!replica.IsDown)
            {
                var wait = StatsOf(replica, now).Rate.TimeUntilToken(now);
                best = best is null ? wait : Math.Min(best.Value, wait);
            }
        }

        return best;
    }

    private C3Stats StatsOf(ReplicaState replica, long now)
    {
        if (replica.SelectorState is C3Stats stats)
        {
            return stats;
        }

        stats = new C3Stats(_options, _frequency, now);
        replica.SelectorState = stats;
        return stats;
    }

    private sealed class C3Stats(C3Options options, long frequency, long now)
    {
        public bool HasFeedback { get; set; }

        // Mutable structs updated in place, so fields rather than properties.
        public Ewma ResponseTime = new(options.EwmaWeight);
        public Ewma ServiceTime = new(options.EwmaWeight);
        public Ewma QueueSize = new(options.EwmaWeight);

        public CubicRateController Rate { get; } = new(options.Rate, frequency, now);
    }

    private sealed class Factory(string name, C3Options options) : ReplicaSelectorFactory
    {
        public override string Name => name;

        public override IReplicaSelector Create(long timestampFrequency) => new C3ReplicaSelector(options, timestampFrequency);
    }
}
