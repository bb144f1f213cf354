// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>
/// A trace file (the project's own format, or a public trace being imported) is malformed. The message names the file,
/// the 1-based line and the field, like a compiler: <c>trace.csv:17: field 'arrival_ms': expected a non-negative number, was "x"</c>.
/// </summary>
public sealed class TraceFormatException : FormatException
{
    /// <summary>Creates the exception.</summary>
    public TraceFormatException()
        : this("The trace is malformed.")
    {
    }

    /// <summary>Creates the exception with a message and no location.</summary>
    /// <param name="message">The message.</param>
    public TraceFormatException(string message)
        : base(message)
    {
        File = string.Empty;
    }

    /// <summary>Creates the exception with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public TraceFormatException(string message, Exception innerException)
        : base(message, innerException)
    {
        File = string.Empty;
    }

    /// <summary>Creates the exception for a problem at a place in a file.</summary>
    /// <param name="file">The file's name as the reader was given it.</param>
    /// <param name="line">The 1-based line number.</param>
    /// <param name="field">The column's name, or <see langword="null"/> when the problem is the whole line.</param>
    /// <param name="problem">What is wrong, without the location.</param>
    public TraceFormatException(string file, long line, string? field, string problem)
        : base(field is null ? $"{file}:{line}: {problem}" : $"{file}:{line}: field '{field}': {problem}")
    {
        File = file;
        Line = line;
        Field = field;
        Problem = problem;
    }

    /// <summary>Gets the file's name as the reader was given it; empty when unknown.</summary>
    public string File { get; }

    /// <summary>Gets the 1-based line number; 0 when unknown.</summary>
    public long Line { get; }

    /// <summary>Gets the column's name; <see langword="null"/> when the problem concerns the whole line.</summary>
    public string? Field { get; }

    /// <summary>Gets what is wrong, without the location; <see langword="null"/> for the plain constructors.</summary>
    public string? Problem { get; }
}
