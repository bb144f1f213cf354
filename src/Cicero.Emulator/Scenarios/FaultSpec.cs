// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// A fault injected into one instance for a while (docs/emulator.md, "faults"), for the reliability checks: a killed
/// process, a slow one, or a broken rate-exchange link.
/// </summary>
/// <remarks>
/// A killed instance answers nothing: calls that reach it fail at once with <c>unavailable</c> (a refused connection)
/// and the calls it was serving fail the same way at the kill (reset connections); its rate-exchange answers stop, so
/// callers hold its last rates and then let them expire as Core specifies. Work it had started is abandoned. At
/// <see cref="UntilSeconds"/> it is back, serving new calls.
/// </remarks>
public sealed class FaultSpec
{
    /// <summary>Gets or sets the kind: <c>kill</c>, <c>slow</c> or <c>rate-exchange-loss</c> (<see cref="FaultKinds"/>).</summary>
    public string? Kind { get; set; }

    /// <summary>Gets or sets the service of the instance; not the entry service (clients have no failover).</summary>
    public string? Service { get; set; }

    /// <summary>Gets or sets the instance's index in its service, from 0.</summary>
    public int Instance { get; set; }

    /// <summary>Gets or sets when the fault starts, in seconds from the run's start.</summary>
    public double AtSeconds { get; set; }

    /// <summary>Gets or sets when it ends (the instance restarts, speeds up, or the link heals).</summary>
    public double UntilSeconds { get; set; }

    /// <summary>Gets or sets the service-time factor of a <c>slow</c> fault.</summary>
    /// <value>10.</value>
    public double Factor { get; set; } = 10;
}
