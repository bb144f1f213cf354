// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>What <see cref="Utf8LineReader.TryTakeLine"/> found.</summary>
internal enum LineStatus
{
    /// <summary>A complete line.</summary>
    Line,

    /// <summary>No complete line is buffered; fill and try again.</summary>
    NeedMore,

    /// <summary>The stream is exhausted.</summary>
    End,
}
