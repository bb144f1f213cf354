// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Dropping;

/// <summary>Options of the <see cref="QueueLengthDropPolicy"/>.</summary>
public sealed class QueueLengthDropOptions
{
    /// <summary>
    /// Gets or sets how many of a workflow's requests may wait at its rate limiter before arrivals are dropped with
    /// <see cref="DropReason.QueueFull"/>. Only bites below the limiter's own queue bound
    /// (<see cref="Cicero.Admission.AdmissionOptions.QueueLimit"/>, 128 by default), past which requests are rejected as rate limited.
    /// </summary>
    /// <value>32.</value>
    public int MaxQueueLength { get; set; } = 32;

    internal void Validate() =>
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxQueueLength, 1, nameof(MaxQueueLength));
}
