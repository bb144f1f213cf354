// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <summary>What a <see cref="RateLimitPolicyFactory"/> knows about the process it creates a policy for.</summary>
/// <param name="Registry">The process's workflows; per-workflow state can be indexed by slot.</param>
/// <param name="Interval">The control interval the policy will be called at.</param>
public sealed record RateLimitPolicyContext(WorkflowRegistry Registry, TimeSpan Interval);
