// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The distributions a <see cref="DistributionSpec"/> may name.</summary>
public static class DistributionKinds
{
    /// <summary>Exponential with the given mean.</summary>
    public const string Exponential = "exponential";

    /// <summary>Always the mean.</summary>
    public const string Constant = "constant";

    /// <summary>Log-normal with the given mean and coefficient of variation.</summary>
    public const string LogNormal = "lognormal";

    /// <summary>Gets every kind.</summary>
    public static IReadOnlyList<string> All { get; } = [Exponential, Constant, LogNormal];
}
