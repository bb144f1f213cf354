// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>Which point of a label its x coordinate names, along the direction the text runs.</summary>
internal enum TextAnchor
{
    /// <summary>The label starts there.</summary>
    Start,

    /// <summary>The label is centred there.</summary>
    Middle,

    /// <summary>The label ends there.</summary>
    End,
}
