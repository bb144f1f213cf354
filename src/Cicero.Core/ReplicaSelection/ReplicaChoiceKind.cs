// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>The kinds of <see cref="ReplicaChoice"/>.</summary>
public enum ReplicaChoiceKind
{
    /// <summary>Wait in the group's backlog until a replica can take the request.</summary>
    Backlog = 0,

    /// <summary>Send to the chosen replica.</summary>
    Replica = 1,

    /// <summary>Fail the request.</summary>
    Fail = 2,
}
