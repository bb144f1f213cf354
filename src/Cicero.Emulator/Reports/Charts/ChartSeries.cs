// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Reports.Charts;

/// <summary>One line of a panel: points in data units; a NaN y is a gap (no value that second).</summary>
internal sealed record ChartSeries(string Name, Rgb Color, double[] Xs, double[] Ys);
