// SPDX-License-Identifier: Apache-2.0

using System.Collections.Frozen;

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// The entry point for importing public traces by format name, for the command line and scripts:
/// <c>TraceImport.Run("meta-block", "block_traces_1.csv", "tenants.csv")</c>.
/// </summary>
public static class TraceImport
{
    /// <summary>Meta's Tectonic block-storage trace (<see cref="MetaBlockTraceImporter"/>).</summary>
    public const string MetaBlock = "meta-block";

    /// <summary>Meta's key-value cache trace (<see cref="MetaKvTraceImporter"/>).</summary>
    public const string MetaKv = "meta-kv";

    /// <summary>The Azure LLM inference trace (<see cref="AzureLlmTraceImporter"/>).</summary>
    public const string AzureLlm = "azure-llm";

    // Often enough for a bar that moves several times a second, rarely enough to cost nothing next to parsing.
    private const long ProgressEvery = 4096;

    private static readonly FrozenDictionary<string, Func<ITraceImporter>> Importers = new Dictionary<string, Func<ITraceImporter>>
    {
        [MetaBlock] = static () => new MetaBlockTraceImporter(),
        [MetaKv] = static () => new MetaKvTraceImporter(),
        [AzureLlm] = static () => new AzureLlmTraceImporter(),
    }.ToFrozenDictionary(StringComparer.Ordinal);

    /// <summary>Gets the format names <see cref="GetImporter"/> knows, sorted.</summary>
    public static IReadOnlyList<string> Formats { get; } = [.. Importers.Keys.Order(StringComparer.Ordinal)];

    /// <summary>Gets the importer of a format, with default options.</summary>
    /// <param name="format">One of <see cref="Formats"/>.</param>
    /// <returns>The importer.</returns>
    /// <exception cref="ArgumentException">The format is unknown.</exception>
    public static ITraceImporter GetImporter(string format)
    {
        ArgumentNullException.ThrowIfNull(format);
        return Importers.TryGetValue(format, out var create)
            ? create()
            : throw new ArgumentException($"Unknown trace format '{format}'; known: {string.Join(", ", Formats)}.", nameof(format));
    }

    /// <summary>
    /// Reads a public trace file lazily through an importer; each enumeration opens the file again, so the sequence
    /// can be enumerated more than once (the replay planner does).
    /// </summary>
    /// <param name="importer">The importer.</param>
    /// <param name="path">The input file.</param>
    /// <returns>The requests in arrival order.</returns>
    public static IEnumerable<TraceRequest> ReadFile(ITraceImporter importer, string path)
    {
        ArgumentNullException.ThrowIfNull(importer);
        ArgumentException.ThrowIfNullOrEmpty(path);
        return Iterate(importer, path);
    }

    /// <summary>Imports a public trace file into a Cicero trace file, streaming.</summary>
    /// <param name="format">One of <see cref="Formats"/>.</param>
    /// <param name="inputPath">The public trace.</param>
    /// <param name="outputPath">The Cicero trace to create (replaced if it exists).</param>
    /// <returns>What was written.</returns>
    /// <exception cref="ArgumentException">The format is unknown.</exception>
    /// <exception cref="TraceFormatException">The input is malformed or has no requests; the output is left as it was (the import writes a temporary file beside it and renames it on success).</exception>
    public static TraceImportSummary Run(string format, string inputPath, string outputPath) => Run(format, inputPath, outputPath, bytesRead: null);

    /// <summary>Imports a public trace file into a Cicero trace file, streaming, and reports how far it has read.</summary>
    /// <param name="format">One of <see cref="Formats"/>.</param>
    /// <param name="inputPath">The public trace.</param>
    /// <param name="outputPath">The Cicero trace to create (replaced if it exists).</param>
    /// <param name="bytesRead">Told the bytes of the input read so far, every few thousand requests and at the end (on the importing thread); <see langword="null"/> for none.</param>
    /// <returns>What was written.</returns>
    /// <exception cref="ArgumentException">The format is unknown.</exception>
    /// <exception cref="TraceFormatException">The input is malformed or has no requests; the output is left as it was.</exception>
    public static TraceImportSummary Run(string format, string inputPath, string outputPath, IProgress<long>? bytesRead)
    {
        var importer = GetImporter(format);
        ArgumentException.ThrowIfNullOrEmpty(inputPath);
        ArgumentException.ThrowIfNullOrEmpty(outputPath);

        // Written beside the output and renamed only once complete: a failed import leaves no trace that looks whole.
        var temporary = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(outputPath))!, $".{Path.GetFileName(outputPath)}.{Environment.ProcessId}.tmp");
        try
        {
            TraceImportSummary summary;
            using (var input = new FileStream(inputPath, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan))
            using (var output = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 1, FileOptions.SequentialScan))
            {
                summary = Copy(importer, input, inputPath, output, bytesRead);
            }

            if (summary.Requests == 0)
            {
                throw new TraceFormatException($"{inputPath}: the input has no requests (a header without rows?); nothing was written.");
            }

            File.Move(temporary, outputPath, overwrite: true);
            return summary;
        }
        finally
        {
            File.Delete(temporary);
        }
    }

    /// <summary>Imports a public trace from a stream into a Cicero trace on a stream, streaming.</summary>
    /// <param name="importer">The importer.</param>
    /// <param name="input">The public trace; left open.</param>
    /// <param name="inputName">The input's name, for errors and the header's <c>input</c> property.</param>
    /// <param name="output">Where the Cicero trace goes; left open, flushed.</param>
    /// <returns>What was written.</returns>
    /// <exception cref="TraceFormatException">The input is malformed.</exception>
    public static TraceImportSummary Run(ITraceImporter importer, Stream input, string inputName, Stream output)
    {
        ArgumentNullException.ThrowIfNull(importer);
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(inputName);
        ArgumentNullException.ThrowIfNull(output);
        return Copy(importer, input, inputName, output, bytesRead: null);
    }

    private static TraceImportSummary Copy(ITraceImporter importer, Stream input, string inputName, Stream output, IProgress<long>? bytesRead)
    {
        var header = new TraceHeader(new Dictionary<string, string>
        {
            [TraceHeader.SourceProperty] = importer.Format,
            [TraceHeader.InputProperty] = TraceNames.Sanitize(Path.GetFileName(inputName)),
        });
        var tenants = new HashSet<string>(StringComparer.Ordinal);
        var operations = new HashSet<string>(StringComparer.Ordinal);
        long requestBytes = 0, responseBytes = 0;
        double last = 0;
        using var writer = new TraceWriter(output, header, leaveOpen: true);
        foreach (var request in importer.Import(input, inputName))
        {
            writer.Write(request);
            tenants.Add(request.Tenant);
            operations.Add(request.Operation);
            requestBytes += request.RequestBytes;
            responseBytes += request.ResponseBytes;
            last = request.ArrivalMs;
            if (bytesRead is not null && writer.RequestsWritten % ProgressEvery == 0)
            {
                bytesRead.Report(input.Position);
            }
        }

        writer.Flush();
        bytesRead?.Report(input.Position);
        return new TraceImportSummary(writer.RequestsWritten, tenants.Count, operations.Count, last, requestBytes, responseBytes);
    }

    private static IEnumerable<TraceRequest> Iterate(ITraceImporter importer, string path)
    {
        using var input = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, bufferSize: 1, FileOptions.SequentialScan);
        foreach (var request in importer.Import(input, path))
        {
            yield return request;
        }
    }
}
