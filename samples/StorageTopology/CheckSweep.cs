// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology;

/// <summary>What <c>check</c> sweeps: a range of seeds, a load kind, how many at once, and the tuning of rate control.</summary>
/// <param name="From">The first seed.</param>
/// <param name="Count">How many seeds.</param>
/// <param name="Kind">The load kind, or <see langword="null"/> to let each seed choose.</param>
/// <param name="Parallel">How many seeds at once.</param>
/// <param name="Tuning">What changes in the rate-controlled configurations.</param>
internal sealed record CheckSweep(int From, int Count, string? Kind, int Parallel, RateControlTuning Tuning);
