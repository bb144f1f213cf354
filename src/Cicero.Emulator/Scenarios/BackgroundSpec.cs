// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Background activity of a service's instances: every <see cref="IntervalMs"/> each instance independently is, with
/// probability <see cref="Probability"/>, in a background period (garbage collection, compaction, a noisy neighbour)
/// during which its service times are multiplied by <see cref="Factor"/>. This models the C3 paper's fluctuating
/// service rates (every T ms a server's mean is μ or 3μ with probability ½) and Wu's background activities.
/// </summary>
/// <remarks>
/// Instances report the state in their replies (<c>ReplicaFeedback.BackgroundActivity</c> is 1 during a period), as
/// Wu's servers piggyback it; selectors other than <c>c3-background</c> ignore it. The service time of a use stage is
/// drawn, and scaled, when the stage starts.
/// </remarks>
public sealed class BackgroundSpec
{
    /// <summary>Gets or sets how often each instance's state is redrawn, in milliseconds.</summary>
    /// <value>500 ms.</value>
    public double IntervalMs { get; set; } = 500;

    /// <summary>Gets or sets the probability that an instance is in a background period in a given interval.</summary>
    /// <value>0.5.</value>
    public double Probability { get; set; } = 0.5;

    /// <summary>Gets or sets the factor service times are multiplied by during a background period.</summary>
    /// <value>3 (the C3 paper's D = 3).</value>
    public double Factor { get; set; } = 3;
}
