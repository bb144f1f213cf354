// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>One request's work on the FE -> Auth -> PS -> BS topology.</summary>
/// <param name="FanOut">Block-server sub-requests the PS sends (0: served at the PS).</param>
/// <param name="AuthMs">Auth service time, ms.</param>
/// <param name="PsMs">PS compute time, ms.</param>
/// <param name="BsMs">Service time of each block-server sub-request, ms (0 when <paramref name="FanOut"/> is 0).</param>
/// <param name="IsWrite">Whether the sub-requests write (to the block's primary copy) rather than read.</param>
public readonly record struct TraceStageCosts(int FanOut, double AuthMs, double PsMs, double BsMs, bool IsWrite);
