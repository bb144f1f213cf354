// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Workflows;

/// <summary>A tracked workflow's dense index in its <see cref="WorkflowRegistry"/>.</summary>
/// <remarks>Engines keep per-workflow state in arrays indexed by <see cref="Index"/>, so the hot path never hashes.</remarks>
public sealed class WorkflowSlot
{
    internal WorkflowSlot(WorkflowRegistry registry, int index, WorkflowId id, bool isOverflow)
    {
        Registry = registry;
        Index = index;
        Id = id;
        IsOverflow = isOverflow;
    }

    /// <summary>Gets the dense index, from 0 (the overflow workflow) to the registry's capacity.</summary>
    public int Index { get; }

    /// <summary>Gets the workflow's id.</summary>
    public WorkflowId Id { get; }

    /// <summary>Gets a value indicating whether this is the overflow workflow that untracked ids fold into.</summary>
    public bool IsOverflow { get; }

    internal WorkflowRegistry Registry { get; }

    /// <inheritdoc />
    public override string ToString() => Id.Value;
}
