// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>Which copies of a block a call over a blocks route goes to (<see cref="StageSpec.Replicas"/>).</summary>
public static class ReplicaTargets
{
    /// <summary>One copy, picked by the route's replica selector (a read).</summary>
    public const string Selected = "selected";

    /// <summary>The block's first copy (a write to the primary).</summary>
    public const string Primary = "primary";

    /// <summary>Every copy, in parallel; the call completes when all have replied (a replicated write).</summary>
    public const string All = "all";

    /// <summary>Gets every value.</summary>
    public static IReadOnlyList<string> Values { get; } = [Selected, Primary, All];
}
