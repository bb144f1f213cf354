// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;

namespace CustomPolicy;

/// <summary>
/// Registers this sample's policies by name, so a tool loads them from the built assembly: the emulator's
/// <c>--policy-assembly CustomPolicy.Tests.dll</c>, then <c>--configurations baseline,gold-first,headroom</c>.
/// </summary>
public sealed class CustomPolicies : IPolicyCatalogRegistration
{
    /// <summary>The workflows <see cref="GoldFirstScheduler"/> serves first when registered this way.</summary>
    public static IReadOnlySet<string> GoldWorkflows { get; } = new HashSet<string>(StringComparer.Ordinal) { "gold", "A", "B" };

    /// <summary>The utilization <see cref="HeadroomRatePolicy"/> keeps every resource under when registered this way.</summary>
    public const double HeadroomTarget = 0.8;

    /// <inheritdoc />
    public void Register(PolicyCatalogBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.AddScheduler(GoldFirstScheduler.CreateFactory(GoldWorkflows)).AddRateLimitPolicy(HeadroomRatePolicy.CreateFactory(HeadroomTarget));
    }
}
