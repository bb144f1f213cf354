// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Model;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>
/// The drop policy consulted again when a queued request's turn comes at its workflow's rate limiter, nothing ahead of
/// it: the wait for σ is judged by the time actually waited rather than predicted on arrival. A refusal then is reported
/// as <see cref="DropReason.RateLimited"/>, for the wait at the rate made it miss.
/// </summary>
internal static class DropAtTurn
{
    public static bool RefusesAtTurn(this IDropPolicy policy, RequestContext context, WorkflowSlot workflow, LocalModel? model, double rate, long now, long timestampFrequency)
    {
        var completion = model?.Find(workflow.Index)?.EstimateCompletionSeconds(context) ?? 0;
        var candidate = new AdmissionCandidate(context, workflow, now, timestampFrequency, completion, 0, rate, 0, 0);
        return policy.Evaluate(candidate, now).IsDrop;
    }
}
