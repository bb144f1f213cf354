// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>What a runner hands <see cref="RunResults"/> besides its <see cref="RunMetrics"/>: the run's identity and the figures only it can measure.</summary>
/// <param name="Scenario">The scenario's name.</param>
/// <param name="Configuration">The configuration's name.</param>
/// <param name="Seed">The seed.</param>
/// <param name="DurationSeconds">How long the workloads ran.</param>
/// <param name="WarmUpSeconds">The warm-up left out of the measured window.</param>
/// <param name="EndSeconds">When the run ended (the last outcome).</param>
/// <param name="Events">Simulation events run; 0 live.</param>
/// <param name="Requests">Requests offered.</param>
/// <param name="WindowSeconds">The measured window's length, which rates are over.</param>
/// <param name="Unfinished">Requests still in flight (conservation wants none).</param>
/// <param name="RunKind">"run" or "live run", for the conservation message.</param>
/// <param name="Resources">Resource utilisation (<see cref="RunResults.Utilizations"/>).</param>
/// <param name="Rates">Σσ per tier and second (<see cref="RunResults.SampleRates"/>).</param>
/// <param name="Interrupted">Whether the run was stopped early.</param>
internal sealed record RunResultInputs(
    string Scenario,
    string Configuration,
    int Seed,
    double DurationSeconds,
    double WarmUpSeconds,
    double EndSeconds,
    long Events,
    long Requests,
    double WindowSeconds,
    long Unfinished,
    string RunKind,
    IReadOnlyList<ResourceUtilization> Resources,
    IReadOnlyList<TierRateSecond> Rates,
    bool Interrupted);
