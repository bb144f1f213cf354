// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The kinds of injected fault (<see cref="FaultSpec.Kind"/>).</summary>
public static class FaultKinds
{
    /// <summary>The instance's process dies at <c>atSeconds</c> and is back at <c>untilSeconds</c>.</summary>
    public const string Kill = "kill";

    /// <summary>The instance's service times are multiplied by <c>factor</c> between the two times.</summary>
    public const string Slow = "slow";

    /// <summary>The rate-exchange replies between the instance and its callers are lost between the two times.</summary>
    public const string RateExchangeLoss = "rate-exchange-loss";

    /// <summary>Gets every kind.</summary>
    public static IReadOnlyList<string> All { get; } = [Kill, Slow, RateExchangeLoss];
}
