// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;

namespace Cicero.StorageTopology;

/// <summary>Where the trace commands read requests from: a Cicero trace, or a public trace imported on the fly.</summary>
internal static class TraceSource
{
    /// <summary>Resolves <c>--trace</c>, or <c>--format</c> with <c>--input</c>, into a re-enumerable source.</summary>
    /// <returns><see langword="false"/> with the problem when the options are missing, mixed or name an unknown format.</returns>
    public static bool TryCreate(string? trace, string? format, string? input, out Func<IEnumerable<TraceRequest>>? source, out string? title, out string? problem)
    {
        source = null;
        title = null;
        problem = null;
        var importing = format is not null || input is not null;
        if ((trace is not null) == importing)
        {
            problem = "Give either --trace FILE, or --format F and --input FILE to import a public trace on the fly.";
            return false;
        }

        if (trace is not null)
        {
            source = () => TraceReader.ReadFile(trace);
            title = Path.GetFileName(trace);
            return true;
        }

        if (format is null || input is null)
        {
            problem = "--format and --input go together.";
            return false;
        }

        ITraceImporter importer;
        try
        {
            importer = TraceImport.GetImporter(format);
        }
        catch (ArgumentException ex)
        {
            problem = ex.Message;
            return false;
        }

        source = () => TraceImport.ReadFile(importer, input);
        title = $"{Path.GetFileName(input)} ({format})";
        return true;
    }
}
