// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// Turns a public trace format into Cicero trace requests, streaming: memory does not grow with the input's length
/// (at most the rows of one second of the input are held, where rows are grouped or spread within a second).
/// <c>traces/README.md</c> documents each importer's mapping and assumptions.
/// </summary>
/// <remarks>Implementations are stateless and thread-safe; each enumeration of <see cref="Import"/> has its own state.</remarks>
public interface ITraceImporter
{
    /// <summary>Gets the format's name, as <see cref="TraceImport.Run(string, string, string)"/> takes it (for example <c>meta-block</c>).</summary>
    string Format { get; }

    /// <summary>Reads a trace lazily.</summary>
    /// <param name="input">The input; the caller owns it and disposes it after the enumeration.</param>
    /// <param name="fileName">The input's name, for errors and for defaults derived from it.</param>
    /// <returns>The requests in arrival order, with arrival 0 at the input's first row; enumerate it once.</returns>
    /// <exception cref="TraceFormatException">A row is malformed (thrown during enumeration), naming the input file, line and column.</exception>
    IEnumerable<TraceRequest> Import(Stream input, string fileName);
}
