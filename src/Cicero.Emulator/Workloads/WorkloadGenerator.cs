// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Workloads;

/// <summary>
/// The arrival side of one <see cref="WorkloadSpec"/>: for an open-loop workload, its seeded arrival process; for a
/// closed-loop one, the number of clients over time and their think time.
/// </summary>
/// <remarks>Not thread-safe: one simulation loop owns it.</remarks>
public sealed class WorkloadGenerator
{
    private readonly PoissonArrivals? _arrivals;

    private WorkloadGenerator(WorkloadSpec spec, IRateFunction schedule, PoissonArrivals? arrivals, TimeDistribution? thinkTime, Random random)
    {
        Spec = spec;
        Schedule = schedule;
        _arrivals = arrivals;
        ThinkTime = thinkTime;
        Random = random;
    }

    /// <summary>Gets the workload's spec.</summary>
    public WorkloadSpec Spec { get; }

    /// <summary>Gets a value indicating whether the workload is closed loop.</summary>
    public bool IsClosedLoop => _arrivals is null;

    /// <summary>Gets the open-loop rate (requests per second) or closed-loop client count over time.</summary>
    public IRateFunction Schedule { get; }

    /// <summary>Gets the think time of closed-loop clients; <see langword="null"/> for none.</summary>
    public TimeDistribution? ThinkTime { get; }

    /// <summary>Gets the workload's own random source (arrivals and think times).</summary>
    public Random Random { get; }

    /// <summary>Creates the generator of a validated workload.</summary>
    /// <param name="spec">The workload.</param>
    /// <param name="stopSeconds">When it stops if the spec does not say (the scenario's duration).</param>
    /// <param name="seed">The seed of the workload's own random stream.</param>
    /// <returns>The generator.</returns>
    public static WorkloadGenerator Create(WorkloadSpec spec, double stopSeconds, int seed)
    {
        ArgumentNullException.ThrowIfNull(spec);
        var random = new Random(seed);
        var stop = Math.Min(spec.StopSeconds ?? stopSeconds, stopSeconds);
        var thinkTime = spec.ThinkTime is null ? null : TimeDistribution.From(spec.ThinkTime);
        if (spec.Kind == WorkloadKinds.ClosedLoop)
        {
            var clients = new StepSchedule(spec.StartSeconds, stop, spec.Clients, spec.Steps?.Select(s => (s.AtSeconds, (double)(s.Clients ?? 0))));
            return new WorkloadGenerator(spec, clients, null, thinkTime, random);
        }

        IRateFunction rate = new StepSchedule(spec.StartSeconds, stop, spec.RatePerSecond, spec.Steps?.Select(s => (s.AtSeconds, s.RatePerSecond ?? 0)));
        if (spec.Kind == WorkloadKinds.OnOff)
        {
            rate = new OnOffRate(rate, spec.StartSeconds, spec.OnSeconds, spec.OffSeconds);
        }

        return new WorkloadGenerator(spec, rate, new PoissonArrivals(rate, random), thinkTime, random);
    }

    /// <summary>Gets the next open-loop arrival strictly after <paramref name="seconds"/>.</summary>
    /// <param name="seconds">The current time, seconds.</param>
    /// <returns>The arrival time, or +∞ when the workload has no more arrivals.</returns>
    /// <exception cref="InvalidOperationException">The workload is closed loop.</exception>
    public double NextArrivalAfter(double seconds) =>
        _arrivals?.NextAfter(seconds) ?? throw new InvalidOperationException("A closed-loop workload has no arrival process.");
}
