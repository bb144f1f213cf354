// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>What an <see cref="IDropPolicy"/> decided about a request.</summary>
/// <param name="reason">Why it is dropped; <see cref="DropReason.None"/> to admit it.</param>
public readonly struct DropDecision(DropReason reason)
{
    /// <summary>Gets why it is dropped; <see cref="DropReason.None"/> to admit it.</summary>
    public DropReason Reason { get; } = reason;

    /// <summary>Gets the decision to let the request through.</summary>
    public static DropDecision Admit => default;

    /// <summary>Gets a value indicating whether the request is dropped.</summary>
    public bool IsDrop => Reason != DropReason.None;

    /// <summary>Creates a decision to drop the request.</summary>
    /// <param name="reason">Why; must not be <see cref="DropReason.None"/>.</param>
    /// <returns>The decision.</returns>
    public static DropDecision Drop(DropReason reason)
    {
        if (reason == DropReason.None)
        {
            throw new ArgumentOutOfRangeException(nameof(reason), reason, "A drop needs a reason.");
        }

        return new DropDecision(reason);
    }
}
