// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>The runs of one static limit: the fill of the bottleneck its max-min shares aim at, and one run per run seed.</summary>
/// <param name="Fill">The fill of the bottleneck, in (0, 1].</param>
/// <param name="Runs">The runs, one per run seed.</param>
public sealed record StaticLimitRuns(double Fill, IReadOnlyList<IReadOnlyDictionary<string, WorkflowOutcome>> Runs);
