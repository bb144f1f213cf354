// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Charts;

/// <summary>One line of a panel: points in data units; a NaN y is a gap (no value that second).</summary>
internal sealed record ChartSeries(string Name, SeriesStyle Style, double[] Xs, double[] Ys);
