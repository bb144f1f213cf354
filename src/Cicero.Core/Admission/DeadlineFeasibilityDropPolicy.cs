// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>
/// The default drop rule (after the dissertation's section 5.2.5): drop a request that cannot meet its deadline even if
/// it were served at once, elapsed + L past δ. The admission controller consults it as a request arrives and again when
/// a queued request's turn comes, so the wait for the workflow's rate σ is judged by the time actually waited.
/// </summary>
/// <remarks>
/// L is the request's own need where it carries an end-to-end estimate T (its service time, capped at the workflow's
/// measured completion time L), else the workflow's L; the reason is <see cref="DropReason.DeadlineInfeasible"/>.
/// <para>
/// The dissertation also drops on arrival when the backlog ahead exceeds delay_max · σ. That predicted wait overstates
/// the real one (requests ahead that are refused at their turn take no token, and σ moves), and where the clients are
/// closed loop a refused request is replaced at once by the client's next, so the refusal does not shorten the queue:
/// it only throws away a request that could have made its deadline. On the public block trace at 4 permits and 250
/// closed-loop clients that test cost LSTF+RC 8.6 points of goodput against doing nothing
/// (docs/research/2026-11-29-table-5-4-sweep.md). Judging the wait at the turn refuses the same late requests without
/// guessing, so the rule no longer predicts it.
/// </para>
/// <para>
/// A request without a deadline is never dropped by this rule. A request exactly at the boundary (elapsed + L equal to
/// δ) is admitted.
/// </para>
/// </remarks>
public sealed class DeadlineFeasibilityDropPolicy : IDropPolicy
{
    /// <summary>Gets the shared instance; the policy has no state.</summary>
    public static DeadlineFeasibilityDropPolicy Instance { get; } = new();

    /// <inheritdoc />
    public DropDecision Evaluate(in AdmissionCandidate candidate, long now)
    {
        if (candidate.Context.Deadline is not { } deadline)
        {
            return DropDecision.Admit;
        }

        var remaining = deadline.TotalSeconds - candidate.ElapsedSeconds;
        return remaining < OwnNeedSeconds(candidate) ? new DropDecision(DropReason.DeadlineInfeasible) : DropDecision.Admit;
    }

    /// <summary>
    /// The time the request needs once served: what is left of its own estimate T where it carries one, capped at the workflow's L (the
    /// service times of parallel calls add up in T but overlap in time), else L; 0 while L is unknown.
    /// </summary>
    private static double OwnNeedSeconds(in AdmissionCandidate candidate)
    {
        var completion = candidate.EstimatedCompletionSeconds;
        var estimate = candidate.Context.EstimatedTotal.ServiceTime;
        return completion > 0 && estimate > 0 && double.IsFinite(estimate) ? Math.Min(candidate.Context.RemainingServiceTime, completion) : completion;
    }
}
