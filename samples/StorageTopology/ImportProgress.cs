// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Traces.Importers;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>Runs an import on a worker thread with a bar over the input's bytes (a line per tenth when piped).</summary>
internal static class ImportProgress
{
    /// <summary>Imports <paramref name="input"/> into <paramref name="output"/>, showing how much of the input has been read.</summary>
    public static TraceImportSummary Run(IAnsiConsole console, string format, string input, string output)
    {
        // A FIFO or a device has no length to measure against (0): nothing to draw a bar on.
        var length = new FileInfo(input) is { Exists: true } file ? file.Length : 0;
        var read = new LatestProgress();
        var work = Task.Run(() => TraceImport.Run(format, input, output, read), CancellationToken.None);
        if (length == 0)
        {
            return work.GetAwaiter().GetResult();
        }

        var name = Path.GetFileName(input);
        return ProgressDisplay.Follow(
            console,
            work,
            read,
            length,
            $"Importing {name}",
            [new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new DownloadedColumn(), new TransferSpeedColumn(), new RemainingTimeColumn()],
            percent => string.Create(CultureInfo.InvariantCulture, $"import: {percent}% of {name} read ({read.Value / 1e6:0.#} of {length / 1e6:0.#} MB)"));
    }
}
