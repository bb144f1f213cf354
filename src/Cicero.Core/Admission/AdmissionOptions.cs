// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>Options of an <see cref="AdmissionController"/>.</summary>
public sealed class AdmissionOptions
{
    /// <summary>Gets or sets the admission rate a workflow starts with, requests per second.</summary>
    /// <value>+∞: no limit until rate adaptation or an operator sets one.</value>
    public double InitialRate { get; set; } = double.PositiveInfinity;

    /// <summary>Gets or sets how much time's worth of tokens a bucket holds when no explicit burst is set.</summary>
    /// <value>100 ms (at least one request).</value>
    public TimeSpan BurstWindow { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Gets or sets how many requests of a workflow may wait for a token.</summary>
    /// <value>128.</value>
    public int QueueLimit { get; set; } = 128;

    /// <summary>
    /// Gets or sets a value indicating whether a queued request's continuation runs on the thread pool. Turn off only
    /// for single-threaded simulations.
    /// </summary>
    /// <value><see langword="true"/>.</value>
    public bool RunContinuationsAsynchronously { get; set; } = true;

    /// <summary>
    /// Gets or sets how long a workflow may go without an admitted request before one request that the drop policy calls
    /// <see cref="DropReason.DeadlineInfeasible"/> on its completion-time estimate alone is admitted as a probe.
    /// </summary>
    /// <remarks>
    /// The estimate learns only from completed requests. Once a stall has pushed it past every deadline, nothing is
    /// admitted, nothing completes and the estimate never comes down: the workflow is locked out for good. One probe per
    /// interval lets a completion correct it, at the cost of at most one doomed request per interval while the system
    /// really is that slow. A request whose deadline has already passed is never a probe.
    /// <see cref="Timeout.InfiniteTimeSpan"/> turns probing off.
    /// </remarks>
    /// <value>1 second.</value>
    public TimeSpan InfeasibleProbeInterval { get; set; } = TimeSpan.FromSeconds(1);

    internal void Validate()
    {
        if (double.IsNaN(InitialRate) || InitialRate < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(InitialRate), InitialRate, "Must be non-negative (or +∞).");
        }

        if (BurstWindow <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(BurstWindow), BurstWindow, "Must be positive.");
        }

        ArgumentOutOfRangeException.ThrowIfNegative(QueueLimit, nameof(QueueLimit));
        if (InfeasibleProbeInterval <= TimeSpan.Zero && InfeasibleProbeInterval != Timeout.InfiniteTimeSpan)
        {
            throw new ArgumentOutOfRangeException(
                nameof(InfeasibleProbeInterval), InfeasibleProbeInterval, "Must be positive, or Timeout.InfiniteTimeSpan to turn probing off.");
        }
    }
}
