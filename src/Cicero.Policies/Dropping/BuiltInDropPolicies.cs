// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Workflows;

namespace Cicero.Policies.Dropping;

/// <summary>Factories for the drop policies that ship in Cicero.Core.</summary>
/// <remarks>Both policies are stateless, so every process shares Core's single instance.</remarks>
internal static class BuiltInDropPolicies
{
    /// <summary>
    /// Gets a factory under the name <see cref="DropPolicies.DeadlineFeasibility"/> that returns
    /// <see cref="DeadlineFeasibilityDropPolicy.Instance"/> (section 5.2.5; the admission controller's default).
    /// </summary>
    public static DropPolicyFactory DeadlineFeasibility { get; } = new InstanceFactory(DropPolicies.DeadlineFeasibility, DeadlineFeasibilityDropPolicy.Instance);

    /// <summary>Gets a factory under the name <see cref="DropPolicies.Never"/> that returns <see cref="NeverDropPolicy.Instance"/>.</summary>
    public static DropPolicyFactory Never { get; } = new InstanceFactory(DropPolicies.Never, NeverDropPolicy.Instance);

    private sealed class InstanceFactory(string name, IDropPolicy policy) : DropPolicyFactory
    {
        public override string Name => name;

        public override IDropPolicy Create(WorkflowRegistry registry) => policy;
    }
}
