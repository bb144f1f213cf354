// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>Creates a process's drop policy; registered and looked up by <see cref="Name"/>.</summary>
public abstract class DropPolicyFactory
{
    /// <summary>Gets the name the policy is configured by, such as "deadline-feasibility".</summary>
    public abstract string Name { get; }

    /// <summary>Creates a drop policy for one process.</summary>
    /// <param name="registry">The process's workflows.</param>
    /// <returns>The policy.</returns>
    public abstract IDropPolicy Create(WorkflowRegistry registry);
}
