// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A step change of a workload at a given time: a new open-loop rate or a new number of closed-loop clients.</summary>
public sealed class WorkloadStepSpec
{
    /// <summary>Gets or sets when the change happens, in seconds of virtual time.</summary>
    public double AtSeconds { get; set; }

    /// <summary>Gets or sets the open-loop rate from then on, requests per second.</summary>
    public double? RatePerSecond { get; set; }

    /// <summary>Gets or sets the number of closed-loop clients from then on.</summary>
    public int? Clients { get; set; }
}
