// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>The outcome of admitting a request: admitted, or dropped with a reason.</summary>
/// <param name="reason">Why the request was dropped; <see cref="DropReason.None"/> when admitted.</param>
public readonly struct AdmissionResult(DropReason reason)
{
    /// <summary>Gets why the request was dropped; <see cref="DropReason.None"/> when admitted.</summary>
    public DropReason Reason { get; } = reason;

    /// <summary>Gets the result of an admitted request.</summary>
    public static AdmissionResult Admitted => default;

    /// <summary>Gets a value indicating whether the request was admitted.</summary>
    public bool IsAdmitted => Reason == DropReason.None;
}
