// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>The selectors of a run: making them, and counting how often their rate limiters held requests back.</summary>
public sealed partial class ReplicaSimulation
{
    /// <summary>Creates one client's selector.</summary>
    /// <param name="name">One of <see cref="SimulationSelectorNames.All"/>.</param>
    /// <param name="options">The set-up (C3's n is the number of clients).</param>
    /// <param name="frequency">Timestamps per second.</param>
    /// <returns>A new selector.</returns>
    /// <exception cref="ArgumentException">The name is unknown.</exception>
    public static IReplicaSelector CreateSelector(string name, ReplicaSimulationOptions options, long frequency)
    {
        ArgumentNullException.ThrowIfNull(options);
        var c3 = new C3Options { ClientCount = options.ScoreClientCount ?? options.Clients, ScoreExponent = options.ScoreExponent };
        c3.Rate.Variant = options.RateVariant;
        c3.Rate.Increase = options.RateIncrease;
        return name switch
        {
            SimulationSelectorNames.C3 => new C3ReplicaSelector(c3, frequency),
            SimulationSelectorNames.RoundRobin => new RateLimitedRoundRobinSelector(c3.Rate, frequency),
            SimulationSelectorNames.DynamicSnitch => new DynamicSnitchSelector(new DynamicSnitchOptions(), frequency),
            SimulationSelectorNames.LeastOutstandingFirstTie => new FirstTieLeastOutstandingSelector(),
            SimulationSelectorNames.RoundRobinPlain => PolicyCatalog.Default.GetReplicaSelector(ReplicaSelectorNames.RoundRobin).Create(frequency),
            SimulationSelectorNames.Oracle or SimulationSelectorNames.LeastOutstanding => PolicyCatalog.Default.GetReplicaSelector(name).Create(frequency),
            _ => throw new ArgumentException($"Unknown selector '{name}'. Known: {string.Join(", ", SimulationSelectorNames.All)}.", nameof(name)),
        };
    }

    private long CountRateLimited()
    {
        var now = _clock.GetTimestamp();
        var limited = 0L;
        foreach (var client in _clients)
        {
            foreach (var view in client.Views)
            {
                limited += client.Selector switch
                {
                    C3ReplicaSelector c3 when view.SelectorState is not null => c3.GetRateController(view, now).LimitedCount,
                    RateLimitedRoundRobinSelector when view.SelectorState is CubicRateController rate => rate.LimitedCount,
                    _ => 0,
                };
            }
        }

        return limited;
    }
}
