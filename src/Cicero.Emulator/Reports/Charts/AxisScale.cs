// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>How a figure's y axis maps values.</summary>
internal enum AxisScale
{
    /// <summary>From zero, linearly.</summary>
    Linear,

    /// <summary>Decades: for latencies, which range from milliseconds to the RPC timeout within one run.</summary>
    Logarithmic,
}
