// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>What a <see cref="RateLimitPolicyFactory"/> knows about the process it creates a policy for.</summary>
/// <param name="registry">The process's workflows; per-workflow state can be indexed by slot.</param>
/// <param name="interval">The control interval the policy will be called at.</param>
public sealed class RateLimitPolicyContext(WorkflowRegistry registry, TimeSpan interval)
{
    /// <summary>Gets the process's workflows; per-workflow state can be indexed by slot.</summary>
    public WorkflowRegistry Registry { get; } = registry;

    /// <summary>Gets the control interval the policy will be called at.</summary>
    public TimeSpan Interval { get; } = interval;
}
