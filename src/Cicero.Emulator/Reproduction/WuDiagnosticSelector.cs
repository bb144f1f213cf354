// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Reproduction;

/// <summary>
/// A diagnostic of Wu's ranking for the reproduction, not a product selector: eq. 4.1 with plain EWMAs
/// (φ = N̄ + q̂³·s̄ + β·Ω̄, β = 10, weight 0.9), where q̂ is the server's reported queue alone, or, with
/// <paramref name="clients"/> set, C3's concurrency-compensated q̂ = 1 + os·n + q (os: this coordinator's outstanding
/// requests to the replica). The two differ only in that term, so their gap measures what Wu's score loses by not
/// counting its own requests in flight.
/// </summary>
internal sealed class WuDiagnosticSelector(double? clients) : IReplicaSelector
{
    private const double Weight = 0.9;
    private const double WaitWeight = 10;

    public const string Plain = "wu-ewma";

    public const string WithOutstanding = "wu-ewma+os";

    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        var best = -1;
        var bestScore = double.PositiveInfinity;
        for (var i = 0; i < replicas.Length; i++)
        {
            if (replicas[i].IsDown)
            {
                continue;
            }

            var score = 0.0;
            if (replicas[i].SelectorState is Stats stats)
            {
                var queue = clients is { } n ? 1 + (replicas[i].Outstanding * n) + stats.Queue : stats.Queue;
                score = stats.Network + (queue * queue * queue * stats.Service) + (WaitWeight * stats.Wait);
            }

            if (best < 0 || score < bestScore)
            {
                best = i;
                bestScore = score;
            }
        }

        return best < 0 ? ReplicaChoice.Fail($"All {replicas.Length} replicas of the group are down.") : ReplicaChoice.Replica(best);
    }

    public void OnSent(ReplicaState replica, long now)
    {
    }

    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        if (feedback.Failed)
        {
            return;
        }

        var service = Math.Max(0, feedback.ServiceTime.TotalMilliseconds);
        var wait = Math.Max(0, feedback.WaitTime.TotalMilliseconds);
        var network = Math.Max(0, feedback.ResponseTime.TotalMilliseconds - service - wait);
        if (replica.SelectorState is not Stats stats)
        {
            replica.SelectorState = new Stats { Network = network, Service = service, Queue = feedback.QueueSize, Wait = wait };
            return;
        }

        stats.Network = Ewma(stats.Network, network);
        stats.Service = Ewma(stats.Service, service);
        stats.Queue = Ewma(stats.Queue, feedback.QueueSize);
        stats.Wait = Ewma(stats.Wait, wait);
    }

    private static double Ewma(double old, double sample) => ((1 - Weight) * old) + (Weight * sample);

    /// <summary>The factory of one of the two variants, <see cref="Plain"/> or <see cref="WithOutstanding"/>.</summary>
    public static ReplicaSelectorFactory Factory(string name, double clients) => name switch
    {
        Plain => new DelegateReplicaSelectorFactory(Plain, _ => new WuDiagnosticSelector(null)),
        WithOutstanding => new DelegateReplicaSelectorFactory(WithOutstanding, _ => new WuDiagnosticSelector(clients)),
        _ => throw new ArgumentException($"Unknown diagnostic selector '{name}'.", nameof(name)),
    };

    private sealed class Stats
    {
        public double Network { get; set; }

        public double Service { get; set; }

        public double Queue { get; set; }

        public double Wait { get; set; }
    }
}
