// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.RateAdaptation;
using Cicero.ReplicaSelection;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero;

/// <summary>
/// The built-in policies implement their interfaces explicitly (the interface is their public surface); these forward
/// the tests' calls on a concrete policy to its interface, unchanged.
/// </summary>
internal static class PolicyInterfaceCalls
{
    public static ReplicaChoice Choose(this IReplicaSelector selector, ReadOnlySpan<ReplicaState> replicas, long now) => selector.Choose(replicas, now);

    public static void OnSent(this IReplicaSelector selector, ReplicaState replica, long now) => selector.OnSent(replica, now);

    public static void OnFeedback(this IReplicaSelector selector, ReplicaState replica, in ReplicaFeedback feedback, long now) =>
        selector.OnFeedback(replica, feedback, now);

    public static long? TimeUntilAvailable(this IBackpressureAware selector, ReadOnlySpan<ReplicaState> replicas, long now) =>
        selector.TimeUntilAvailable(replicas, now);

    public static void Enqueue(this ISubtaskScheduler scheduler, in SubtaskTicket ticket) => scheduler.Enqueue(ticket);

    public static bool TryDequeue(this ISubtaskScheduler scheduler, long now, out SubtaskTicket ticket) => scheduler.TryDequeue(now, out ticket);

    public static bool TryRemove(this ISubtaskScheduler scheduler, in SubtaskTicket ticket) => scheduler.TryRemove(ticket);

    public static void OnCompleted(this ISubtaskScheduler scheduler, in SubtaskCompletion completion) => scheduler.OnCompleted(completion);

    public static void OnCapacityChanged(this ISubtaskScheduler scheduler, int capacity) => scheduler.OnCapacityChanged(capacity);

    public static bool TryStartImmediately(this ISubtaskScheduler scheduler, WorkflowSlot workflow, double cost) =>
        scheduler.TryStartImmediately(workflow, cost);

    public static void ComputeLocalRates(this IRateLimitPolicy policy, LocalRateInputs inputs, Span<double> localRates, long now) =>
        policy.ComputeLocalRates(inputs, localRates, now);

    public static DropDecision Evaluate(this IDropPolicy policy, in AdmissionCandidate candidate, long now) => policy.Evaluate(candidate, now);

    extension(ISubtaskScheduler scheduler)
    {
        public int Count => scheduler.Count;
    }
}
