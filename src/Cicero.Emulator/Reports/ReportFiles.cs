// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports;

/// <summary>The files a report wrote, as full paths.</summary>
public sealed class ReportFiles
{
    /// <summary>Gets the folder the report is in.</summary>
    public required string Directory { get; init; }

    /// <summary>Gets the self-contained HTML report, <c>report.html</c>.</summary>
    public required string Html { get; init; }

    /// <summary>Gets <c>results.json</c>: the scenario and every run's result.</summary>
    public required string Json { get; init; }

    /// <summary>Gets the CSV files: <c>summary</c>, <c>timeseries</c>, <c>rates</c>, <c>utilization</c>, <c>runs</c>.</summary>
    public required IReadOnlyList<string> Csv { get; init; }

    /// <summary>Gets the PNG figures, one per chart of the HTML report (empty when PNGs are off).</summary>
    public required IReadOnlyList<string> Png { get; init; }

    /// <summary>
    /// Gets how many figures were not drawn because writing was cancelled (the report then says it is partial);
    /// 0 when the report is whole.
    /// </summary>
    public int FiguresNotDrawn { get; init; }
}
