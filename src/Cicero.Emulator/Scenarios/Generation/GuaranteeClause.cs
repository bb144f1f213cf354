// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>One clause of the rate-control guarantee (H1, H2, A1, A2 or A3) judged for one configuration on one seed.</summary>
/// <param name="Name">The clause: H1, H2, A1, A2 or A3.</param>
/// <param name="Configuration">The rate-controlled configuration judged: <c>rc</c> or <c>rc+drr</c>.</param>
/// <param name="Margin">
/// The worst margin over the workflows the clause covers, as a fraction of its limit: 1 = exactly at the limit, below 1
/// = broken, infinity when nothing was there to judge.
/// </param>
/// <param name="Detail">What the worst margin came from, with the figures.</param>
public sealed record GuaranteeClause(string Name, string Configuration, double Margin, string Detail)
{
    /// <summary>Gets a value indicating whether the clause holds.</summary>
    public bool Passed => Margin >= 1;
}
