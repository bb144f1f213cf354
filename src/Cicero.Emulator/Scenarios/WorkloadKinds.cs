// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The workload kinds a <see cref="WorkloadSpec"/> may name.</summary>
public static class WorkloadKinds
{
    /// <summary>Open loop: a Poisson process at the current rate.</summary>
    public const string Poisson = "poisson";

    /// <summary>Open loop, bursty: Poisson at the current rate during on periods, nothing during off periods.</summary>
    public const string OnOff = "on-off";

    /// <summary>Closed loop: a number of clients, each with one request outstanding and a think time.</summary>
    public const string ClosedLoop = "closed-loop";

    /// <summary>Gets every kind.</summary>
    public static IReadOnlyList<string> All { get; } = [Poisson, OnOff, ClosedLoop];
}
