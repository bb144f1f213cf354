// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>One configuration's panel of a figure; <paramref name="EmptyNote"/> is shown when no series has a value.</summary>
internal sealed record FigurePanel(string Title, IReadOnlyList<ChartSeries> Series, string EmptyNote);
