// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A scenario file is malformed or invalid; <see cref="Errors"/> lists every problem found, each with its path.</summary>
public sealed class ScenarioValidationException : Exception
{
    /// <summary>Creates the exception.</summary>
    public ScenarioValidationException()
        : this([])
    {
    }

    /// <summary>Creates the exception with a message and no listed errors.</summary>
    /// <param name="message">The message.</param>
    public ScenarioValidationException(string message)
        : base(message)
    {
        Errors = [];
    }

    /// <summary>Creates the exception with a message and an inner exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public ScenarioValidationException(string message, Exception innerException)
        : base(message, innerException)
    {
        Errors = [];
    }

    /// <summary>Creates the exception from the errors found.</summary>
    /// <param name="errors">The errors, in the order found.</param>
    /// <param name="source">Where the scenario came from (a file name), for the message; optional.</param>
    /// <param name="innerException">The parser's exception, for a syntax error; optional.</param>
    public ScenarioValidationException(IReadOnlyList<ScenarioError> errors, string? source = null, Exception? innerException = null)
        : base(Format(errors, source), innerException)
    {
        Errors = errors;
    }

    /// <summary>Gets every problem found.</summary>
    public IReadOnlyList<ScenarioError> Errors { get; }

    private static string Format(IReadOnlyList<ScenarioError> errors, string? source)
    {
        ArgumentNullException.ThrowIfNull(errors);
        var where = source is null ? "The scenario" : $"Scenario '{source}'";
        var noun = errors.Count == 1 ? "error" : "errors";
        return $"{where} has {errors.Count} {noun}:{Environment.NewLine}  {string.Join(Environment.NewLine + "  ", errors)}";
    }
}
