// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A service-time (or think-time) distribution given by its kind and mean.</summary>
public sealed class DistributionSpec
{
    /// <summary>Gets or sets the kind: one of <see cref="DistributionKinds.All"/>.</summary>
    /// <value>"exponential", as in the dissertation.</value>
    public string Distribution { get; set; } = DistributionKinds.Exponential;

    /// <summary>Gets or sets the mean, in milliseconds.</summary>
    public double MeanMs { get; set; }

    /// <summary>Gets or sets, for a log-normal, the coefficient of variation (standard deviation over mean).</summary>
    /// <value>1.</value>
    public double Cv { get; set; } = 1;
}
