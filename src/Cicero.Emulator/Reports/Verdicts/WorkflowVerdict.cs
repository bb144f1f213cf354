// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Verdicts;

/// <summary>The verdict for one class of workflows: those for which the configurations rank alike.</summary>
/// <param name="Workflows">The workflows of the class, in report order.</param>
/// <param name="Best">The configuration best for both goals (most goodput, then lowest p99), or the goodput winner when the goals disagree; <see cref="ReportVerdict.Tie"/> (empty) when no configuration stands out.</param>
/// <param name="LatencyBest">The configuration with the lowest p99 among all configurations, when it is not <paramref name="Best"/> (the goals disagree); otherwise <see langword="null"/>.</param>
/// <param name="Sentence">The verdict in one sentence, with the numbers it rests on.</param>
public sealed record WorkflowVerdict(IReadOnlyList<string> Workflows, string Best, string? LatencyBest, string Sentence)
{
    /// <summary>Gets the configurations as good as <see cref="Best"/> (within the verdict's tolerances), <see cref="Best"/> first.</summary>
    public IReadOnlyList<string> AsGood { get; init; } = [Best];

    /// <summary>Gets a value indicating whether the best configuration depends on the goal (latency against goodput).</summary>
    public bool DependsOnGoal => LatencyBest is not null;
}
