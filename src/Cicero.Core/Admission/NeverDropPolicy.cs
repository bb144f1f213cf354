// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>A drop policy that never drops; requests are limited only by the rate and the queue bound.</summary>
public sealed class NeverDropPolicy : IDropPolicy
{
    /// <summary>Gets the shared instance.</summary>
    public static NeverDropPolicy Instance { get; } = new();

    private NeverDropPolicy()
    {
    }

    /// <inheritdoc />
    DropDecision IDropPolicy.Evaluate(in AdmissionCandidate candidate, long now) => DropDecision.Admit;
}
