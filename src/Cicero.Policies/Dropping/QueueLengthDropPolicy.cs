// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Workflows;

namespace Cicero.Policies.Dropping;

/// <summary>
/// Drop-tail on the rate limiter's queue: an arriving request is dropped with <see cref="DropReason.QueueFull"/> when
/// <see cref="QueueLengthDropOptions.MaxQueueLength"/> of its workflow's requests already wait, so at most that many wait.
/// </summary>
/// <remarks>
/// Deadline-blind: use it for requests without deadlines, or to bound queueing delay at roughly MaxQueueLength ÷ σ.
/// A request that arrives to an empty queue is never dropped by this rule, whether it is admitted at once or waits.
/// Stateless once created; single-threaded by contract (it runs under the admission controller's lock), reads no
/// clock and allocates nothing.
/// </remarks>
public sealed class QueueLengthDropPolicy : IDropPolicy
{
    private readonly int _maxQueueLength;

    /// <summary>Creates the policy.</summary>
    /// <param name="options">The threshold; defaults when <see langword="null"/>.</param>
    /// <exception cref="ArgumentOutOfRangeException">The threshold is below 1.</exception>
    public QueueLengthDropPolicy(QueueLengthDropOptions? options = null)
    {
        options ??= new QueueLengthDropOptions();
        options.Validate();
        _maxQueueLength = options.MaxQueueLength;
    }

    /// <summary>Gets the number of waiting requests at which arrivals are dropped.</summary>
    internal int MaxQueueLength => _maxQueueLength;

    /// <summary>Creates a factory under the name <see cref="DropPolicies.QueueLength"/>.</summary>
    /// <param name="options">The threshold, validated and copied now; defaults when <see langword="null"/>.</param>
    /// <returns>The factory; processes share one policy, which has no mutable state.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The threshold is below 1.</exception>
    public static DropPolicyFactory CreateFactory(QueueLengthDropOptions? options = null) =>
        new QueueLengthFactory(new QueueLengthDropPolicy(options));

    /// <inheritdoc />
    DropDecision IDropPolicy.Evaluate(in AdmissionCandidate candidate, long now) =>
        candidate.QueueLength >= _maxQueueLength ? new DropDecision(DropReason.QueueFull) : DropDecision.Admit;

    private sealed class QueueLengthFactory(QueueLengthDropPolicy policy) : DropPolicyFactory
    {
        public override string Name => DropPolicies.QueueLength;

        public override IDropPolicy Create(WorkflowRegistry registry) => policy;
    }
}
