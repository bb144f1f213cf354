// SPDX-License-Identifier: Apache-2.0

using Cicero.Measurement;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.ReplicaSelection;

/// <summary>
/// C3 for real servers, the default <c>c3</c> (decision 0019): C3's cubic score with the queue estimate read against
/// the group's mean load, and estimates that age while a replica goes unheard; no per-replica rate limits. The paper's algorithm as written is <see cref="C3ReplicaSelector"/>
/// (<c>c3-paper</c>).
/// </summary>
/// <remarks>
/// <para>
/// Score Ψ = R · max(1, L / L̄)^b, with R = (R − S) + S from EWMAs of the wait outside the server's handler and of
/// the service time, L = 1 + max(os·n, q̄) the load (the paper adds the two, which counts a client's own calls twice
/// when the server reports its calls in flight), and L̄ = Σ L² / Σ L the load a request meets on average on the
/// group's other live replicas. The paper's S · q̂^b charges every request in flight as if each replica
/// served one at a time; a server without a queue (unlimited concurrency) answers in S whatever its load, so the
/// paper's rule sent calls to the slow replica whenever the fast ones had a few in flight (issue 35: 5-11% of calls,
/// p999 at the slow replica's latency). Here latency decides, and the cubic load term only brakes herding: it is 1 for
/// a replica holding no more than the usual load and cannot starve an idle replica. A server that queues shows its
/// queue in R − S (the wait before its handler) or, without server feedback (S = R), in R. R − S is kept as its
/// excess over the client's common wait (all answers) and a rise common to the other replicas is taken out of a
/// replica's last answers (decision 0019, 2026-11-29), so a host pause does not reorder the replicas.
/// </para>
/// <para>
/// A replica with nothing outstanding whose last answer is older than <see cref="AgeingHalfLife"/> has its score
/// halved per half-life, so a replica judged on a few slow answers (a cold connection, a past slowdown) is tried again
/// within seconds; the answer to that try outweighs the old estimates in the same proportion. A request is never held back: the paper's per-client cubic rate limits
/// either held calls in a backlog (until their deadline, behind grpc-dotnet's unordered re-picks) or, used only to
/// rank, sent them to the slow replica whenever the fast ones were over their limit. Single-threaded by contract.
/// </para>
/// </remarks>
public sealed class LatencyAwareC3Selector : IReplicaSelector
{
    /// <summary>The time in which an unheard replica's score halves.</summary>
    public static readonly TimeSpan AgeingHalfLife = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// Weight of a new sample in the EWMA of R − S: the wait outside the server's handler is mostly the client's and the
    /// network's, common to all replicas and noisy on a busy host, so one sample must not reorder the replicas.
    /// </summary>
    private const double WaitWeight = 0.2;

    private readonly C3Options _options;
    private readonly double _halfLifeTicks;
    private readonly double _ticksPerMillisecond;
    private Ewma _commonWait = new(WaitWeight);

    /// <summary>Creates the selector.</summary>
    /// <param name="options">Score options (the exponent b, n, the EWMA weight); the rate options are not used.</param>
    /// <param name="timestampFrequency">Timestamps per second of the clock passed as <c>now</c>.</param>
    public LatencyAwareC3Selector(C3Options options, long timestampFrequency)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(timestampFrequency);
        options.Validate();
        _options = options;
        _halfLifeTicks = AgeingHalfLife.TotalSeconds * timestampFrequency;
        _ticksPerMillisecond = timestampFrequency / 1000.0;

        // From 0, so the first answer's wait counts as its replica's own until others are heard (a cold start).
        _commonWait.Update(0);
    }

    /// <summary>Creates a factory under the name "c3".</summary>
    /// <param name="options">Options; C3's defaults when <see langword="null"/>.</param>
    /// <returns>The factory.</returns>
    public static ReplicaSelectorFactory CreateFactory(C3Options? options = null)
    {
        options ??= new C3Options();
        options.Validate();
        return new Factory(options);
    }

    /// <inheritdoc />
    ReplicaChoice IReplicaSelector.Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        if (replicas.IsEmpty)
        {
            return ReplicaSelectorShared.EmptyGroup;
        }

        // Each replica's load is read against the load a request meets on the other live replicas (Σ L² / Σ L over
        // them): replicas that hold little (the slow one, probed now and then) do not make the busy ones look over
        // their share, and one replica holding the whole burst does.
        var total = 0.0;
        var squares = 0.0;
        foreach (var replica in replicas)
        {
            if (!replica.IsDown)
            {
                var load = LoadOf(replica);
                total += load;
                squares += load * load;
            }
        }

        var best = -1;
        var bestScore = double.PositiveInfinity;
        for (var i = 0; i < replicas.Length; i++)
        {
            var replica = replicas[i];
            if (replica.IsDown)
            {
                continue;
            }

            var own = LoadOf(replica);
            var others = total - own;
            var othersRise = OthersRise(replicas, i, now);
            var score = Score(replica, others <= 0 ? own : (squares - (own * own)) / others, othersRise, now);
            if (best < 0 || score < bestScore)
            {
                best = i;
                bestScore = score;
            }
        }

        return best < 0 ? ReplicaSelectorShared.AllDown : ReplicaChoice.Replica(best);
    }

    /// <inheritdoc />
    void IReplicaSelector.OnSent(ReplicaState replica, long now) => ArgumentNullException.ThrowIfNull(replica);

    /// <inheritdoc />
    void IReplicaSelector.OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (feedback.Failed)
        {
            return;
        }

        var stats = StatsOf(replica, now);
        var response = Math.Max(feedback.ResponseTime.TotalMilliseconds, 1e-3);
        var service = feedback.ServiceTime > TimeSpan.Zero ? Math.Min(feedback.ServiceTime.TotalMilliseconds, response) : response;
        // Estimates age with the time the replica went unheard: the old value's weight halves per half-life, so the
        // first answer after a quiet spell (a probe of a replica judged slow) counts as much as the spell says.
        var unheard = now - stats.LastHeard;
        var kept = stats.HasFeedback && unheard > _halfLifeTicks ? Math.Pow(0.5, unheard / _halfLifeTicks) : 1;
        var before = stats.HasFeedback ? stats.Latency : double.NaN;
        // The wait outside the handler is kept as its excess over the wait of every answer this client hears (the
        // common wait): the client's scheduling is common to all replicas, so a replica heard rarely (the slow one,
        // retried by the ageing) is ranked with today's common wait, not with the one of its last answer.
        var wait = response - service;
        var excess = wait - _commonWait.Value;
        _commonWait.Update(wait);
        Fold(ref stats.Wait, excess, kept);
        Fold(ref stats.ServiceTime, service, kept);
        Fold(ref stats.QueueSize, Math.Max(0, feedback.QueueSize), kept);

        // The floor of the common-mode correction is the estimate before the current run of rising answers began.
        var rising = stats.Latency > before;
        if (!(rising && stats.Rising))
        {
            stats.Floor = double.IsNaN(before) ? stats.Latency : before;
        }

        stats.Rising = rising;
        stats.RiseAtAnswer = 1;
        stats.AnswerWindow = (long)(response * _ticksPerMillisecond);
        stats.HasFeedback = true;
        stats.LastHeard = now;
    }

    /// <summary>Gets a replica's score in milliseconds, aged as at <paramref name="now"/>; lower is better; before any feedback, only the load term (0 at or under the usual load).</summary>
    /// <param name="replica">The replica.</param>
    /// <param name="meanLoad">The load a request meets on average on the group's other live replicas, L̄ = Σ L² / Σ L.</param>
    /// <param name="othersRise">The rise still going on among the other replicas (1: none), for the common-mode correction.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>Ψ = R · max(1, L / L̄)^b, halved per <see cref="AgeingHalfLife"/> the replica has been idle and unheard.</returns>
    internal double Score(ReplicaState replica, double meanLoad, double othersRise, long now)
    {
        var relative = Math.Max(1, LoadOf(replica) / meanLoad);
        var penalty = _options.ScoreExponent == 3 ? relative * relative * relative : Math.Pow(relative, _options.ScoreExponent);
        if (replica.SelectorState is not Stats { HasFeedback: true } stats)
        {
            // Unmeasured: tried first, but the load term still spreads a cold start's burst instead of piling it on one.
            return penalty - 1;
        }

        var latency = Math.Max(stats.ServiceTime.Value, CommonModeCorrected(stats, othersRise) + _commonWait.Value);
        var score = latency * penalty;
        var unheard = now - stats.LastHeard;
        return replica.Outstanding == 0 && unheard > _halfLifeTicks ? score * Math.Pow(0.5, unheard / _halfLifeTicks) : score;
    }

    /// <summary>
    /// The replica's latency estimate R with the common-mode part of its last answers taken out. When the other
    /// replicas' estimates rose together with this replica's last answers (the highest rise of another replica heard
    /// while those calls came back, <c>riseAtAnswer</c>) and have stopped rising since, those answers were slow for
    /// everyone, as when the host pauses and every call in flight comes back late: the estimate is divided by that rise
    /// (times the rise still going on), never under what it was before those answers. A replica left idle after a pause
    /// would otherwise keep its inflated estimate until the ageing retries it, 1-2 s later, while its calls go to the
    /// other replicas and, once their brake fires, to the slow one (issue 35). Rises are compared, not levels, so a
    /// replica slow on its own (the slow one, a far zone) neither caps the others' level nor is excused by it, and a
    /// replica whose answers rose while the others' did not keeps them.
    /// </summary>
    private static double CommonModeCorrected(Stats stats, double othersRise)
    {
        var latency = stats.Latency;
        if (!(stats.RiseAtAnswer > othersRise))
        {
            return latency;
        }

        return Math.Min(latency, Math.Max(stats.Floor, latency * othersRise / stats.RiseAtAnswer));
    }

    /// <summary>
    /// The rise still going on among the other replicas heard since this replica's last call was sent (its idle
    /// replicas' old estimates are no evidence either way), for a replica whose last answers raised its estimate (1 for
    /// any other, which has nothing to correct). While the calls in flight with that answer come back (for as long after
    /// it as it took; in a host pause they come back together, in any order) the highest rise seen is kept. O(n) for
    /// such a replica only, so a pick stays O(n) but in the moments after a rise.
    /// </summary>
    private static double OthersRise(ReadOnlySpan<ReplicaState> replicas, int index, long now)
    {
        if (replicas[index].SelectorState is not Stats { HasFeedback: true } stats || stats.Rise <= 1)
        {
            return 1;
        }

        var sent = stats.LastHeard - stats.AnswerWindow;
        var rise = 1.0;
        for (var j = 0; j < replicas.Length; j++)
        {
            if (j != index && !replicas[j].IsDown && replicas[j].SelectorState is Stats { HasFeedback: true } other && other.LastHeard >= sent)
            {
                rise = Math.Max(rise, other.Rise);
            }
        }

        if (now - stats.LastHeard <= stats.AnswerWindow && rise > stats.RiseAtAnswer)
        {
            stats.RiseAtAnswer = rise;
        }

        return rise;
    }

    /// <summary>Folds a sample into an EWMA whose old value keeps only <paramref name="kept"/> of its usual weight.</summary>
    private static void Fold(ref Ewma average, double sample, double kept)
    {
        if (kept >= 1 || !average.HasValue)
        {
            average.Update(sample);
            return;
        }

        var weight = 1 - ((1 - average.Weight) * kept);
        var value = (weight * sample) + ((1 - weight) * average.Value);
        average.Reset();
        average.Update(value);
    }

    /// <summary>
    /// The replica's load: 1 + max(os·n, q̄) (q̄ is 0 before any server feedback). The paper adds the two, but both count
    /// the same calls when the server reports its calls in flight (as Cicero's server does, this client's own among
    /// them): the sum charged a busy replica twice, and as q̄ followed the last answer's snapshot (0.7 one answer, 6.9
    /// the next, issue 35) the cubic term swung a fast replica's score tenfold and spilled calls to the slow one.
    /// </summary>
    private double LoadOf(ReplicaState replica) =>
        1 + Math.Max(replica.Outstanding * _options.ClientCount, replica.SelectorState is Stats stats ? stats.QueueSize.Value : 0);

    private Stats StatsOf(ReplicaState replica, long now)
    {
        if (replica.SelectorState is Stats stats)
        {
            return stats;
        }

        stats = new Stats(_options.EwmaWeight, now);
        replica.SelectorState = stats;
        return stats;
    }

    private sealed class Stats(double ewmaWeight, long now)
    {
        public bool HasFeedback { get; set; }

        public long LastHeard { get; set; } = now;

        /// <summary>Gets the replica's own latency estimate in milliseconds: S plus its wait in excess of the common wait.</summary>
        public double Latency => Wait.Value + ServiceTime.Value;

        /// <summary>Gets or sets the estimate before the current run of rising answers: the common-mode correction's floor.</summary>
        public double Floor { get; set; }

        /// <summary>Gets or sets whether the last answer raised the estimate.</summary>
        public bool Rising { get; set; }

        /// <summary>Gets how far the current run of rising answers has raised the estimate (1: not rising).</summary>
        public double Rise => Latency > Floor && Floor > 0 ? Latency / Floor : 1;

        /// <summary>Gets or sets the highest rise of another replica seen within <see cref="AnswerWindow"/> of the last answer (1: none).</summary>
        public double RiseAtAnswer { get; set; } = 1;

        /// <summary>Gets or sets how long after the last answer the others' level is still recorded: that answer's response time, in ticks.</summary>
        public long AnswerWindow { get; set; }

        // Mutable structs updated in place, so fields rather than properties.
        public Ewma Wait = new(WaitWeight);
        public Ewma ServiceTime = new(ewmaWeight);
        public Ewma QueueSize = new(ewmaWeight);
    }

    private sealed class Factory(C3Options options) : ReplicaSelectorFactory
    {
        public override string Name => ReplicaSelectorNames.C3;

        public override IReplicaSelector Create(long timestampFrequency) => new LatencyAwareC3Selector(options, timestampFrequency);
    }
}
