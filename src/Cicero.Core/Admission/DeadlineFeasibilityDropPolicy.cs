// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>
/// The default drop rule (dissertation section 5.2.5): drop a request when the backlog ahead of it exceeds
/// delay_max · σ, where delay_max = δ − (elapsed + L) is the longest it may queue and still meet its deadline. The
/// admission controller consults it as a request arrives and again when a queued request's turn comes.
/// </summary>
/// <remarks>
/// L is what the request needs once admitted: what is left of its own end-to-end estimate T where it carries one,
/// capped at the workflow's completion-time estimate (the service times of parallel calls add up in T but overlap in
/// time), else the workflow's estimate. The reason says which input made it infeasible:
/// <see cref="DropReason.DeadlineInfeasible"/> when it cannot finish in time even if admitted at once (elapsed + L past
/// the deadline); <see cref="DropReason.RateLimited"/> when only the wait for the workflow's rate σ makes it miss, for
/// that is the rate limit refusing it, not the deadline. At its turn nothing is ahead, so the wait it has had is judged
/// by the time it took, not by the backlog ÷ σ predicted on arrival.
/// A request without a deadline is never dropped by this rule. A request exactly at the boundary (backlog equal to
/// delay_max · σ) is admitted. With σ = +∞ there is no queueing delay, so only an already-missed deadline drops.
/// </remarks>
public sealed class DeadlineFeasibilityDropPolicy : IDropPolicy
{
    /// <summary>Gets the shared instance; the policy has no state.</summary>
    public static DeadlineFeasibilityDropPolicy Instance { get; } = new();

    private DeadlineFeasibilityDropPolicy()
    {
    }

    /// <inheritdoc />
    DropDecision IDropPolicy.Evaluate(in AdmissionCandidate candidate, long now)
    {
        if (candidate.Context.Deadline is not { } deadline)
        {
            return DropDecision.Admit;
        }

        var maxDelay = deadline.TotalSeconds - (candidate.ElapsedSeconds + NeedSeconds(candidate));
        if (maxDelay < 0)
        {
            return new DropDecision(DropReason.DeadlineInfeasible);
        }

        // With an unbounded rate nothing waits; avoid ∞ · 0 when the delay budget is exactly zero.
        var tolerable = double.IsPositiveInfinity(candidate.AdmissionRate) ? double.PositiveInfinity : maxDelay * candidate.AdmissionRate;
        return candidate.Backlog > tolerable ? new DropDecision(DropReason.RateLimited) : DropDecision.Admit;
    }

    /// <summary>
    /// What the request needs once admitted: what is left of its own estimate T where it carries one, capped at the
    /// workflow's estimate L, else L; 0 while L is unknown. L scales T by the workflow's completion time per second of
    /// T, which under overload is queueing that does not grow with the request's size and that its own priority may skip.
    /// </summary>
    private static double NeedSeconds(in AdmissionCandidate candidate)
    {
        var completion = candidate.EstimatedCompletionSeconds;
        var estimate = candidate.Context.EstimatedTotal.ServiceTime;
        return completion > 0 && estimate > 0 && double.IsFinite(estimate) ? Math.Min(candidate.Context.RemainingServiceTime, completion) : completion;
    }
}
