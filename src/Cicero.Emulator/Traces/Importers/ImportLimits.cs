// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// Bounds the importers check before they allocate: a row's repeat count and the requests of one second (which an
/// importer holds to spread them over the second). A larger value is an error naming the file, line and field, not an
/// out-of-memory crash.
/// </summary>
public static class ImportLimits
{
    /// <summary>The most requests one row may stand for (<c>op_count</c>).</summary>
    public const long MaxRowCount = 1_000_000;

    /// <summary>The most requests one second of a trace may hold.</summary>
    public const long MaxRequestsPerSecond = 2_000_000;
}
