// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>One panel of a figure; <paramref name="EmptyNote"/> is shown when no series has a value.</summary>
/// <param name="Title">The panel's title (a configuration, or a workflow under a configuration).</param>
/// <param name="Series">The lines.</param>
/// <param name="EmptyNote">What to say when no series has a value.</param>
internal sealed record FigurePanel(string Title, IReadOnlyList<ChartSeries> Series, string EmptyNote)
{
    /// <summary>Gets the note drawn in the panel's corner: which series are hidden behind others (<see cref="SeriesOverlap"/>).</summary>
    public string? Note { get; init; }
}
