// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Workflows;

/// <summary>
/// Identifies a workflow: a tenant, an API class or a background job whose requests Cicero manages together.
/// </summary>
/// <remarks>
/// An id is 1 to <see cref="MaxLength"/> visible ASCII characters (0x21 to 0x7E), so it travels in a header and
/// tags a metric without escaping. Ids compare ordinally.
/// </remarks>
public readonly record struct WorkflowId
{
    /// <summary>The longest id accepted, in characters.</summary>
    public const int MaxLength = 128;

    private readonly string? _value;

    /// <summary>Creates a workflow id.</summary>
    /// <param name="value">The id text.</param>
    /// <exception cref="ArgumentException"><paramref name="value"/> is empty, too long or has characters outside 0x21-0x7E.</exception>
    public WorkflowId(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (Validate(value) is { } error)
        {
            throw new ArgumentException(error, nameof(value));
        }

        _value = value;
    }

    /// <summary>Gets the id text; empty for the default value.</summary>
    public string Value => _value ?? string.Empty;

    /// <summary>Gets a value indicating whether this is the default (unset) id.</summary>
    public bool IsEmpty => _value is null;

    /// <summary>Creates an id, or says why the text is not one.</summary>
    /// <param name="value">The candidate text.</param>
    /// <param name="id">The id when the text is valid.</param>
    /// <param name="error">What is wrong with the text, otherwise <see langword="null"/>.</param>
    /// <returns><see langword="true"/> if the text is a valid id.</returns>
    public static bool TryCreate(string? value, out WorkflowId id, out string? error)
    {
        error = value is null ? "The workflow id is missing." : Validate(value);
        id = error is null ? new WorkflowId(value!, trusted: true) : default;
        return error is null;
    }

    /// <summary>Checks whether <paramref name="c"/> may appear in a workflow id.</summary>
    /// <param name="c">The character.</param>
    /// <returns><see langword="true"/> for visible ASCII.</returns>
    internal static bool IsValidChar(char c) => c is >= '!' and <= '~';

    /// <inheritdoc />
    public override string ToString() => Value;

    /// <summary>Converts text to a <see cref="WorkflowId"/>.</summary>
    /// <param name="value">The id text.</param>
    public static implicit operator WorkflowId(string value) => new(value);

    /// <summary>Creates an id from text.</summary>
    /// <param name="value">The id text.</param>
    /// <returns>The id.</returns>
    public static WorkflowId FromString(string value) => new(value);

    internal WorkflowId(string value, bool trusted)
    {
        _ = trusted;
        _value = value;
    }

    private static string? Validate(string value)
    {
        if (value.Length == 0)
        {
            return "The workflow id is empty.";
        }

        if (value.Length > MaxLength)
        {
            return $"The workflow id is {value.Length} characters long; the limit is {MaxLength}.";
        }

        for (var i = 0; i < value.Length; i++)
        {
            if (!IsValidChar(value[i]))
            {
                return $"The workflow id has a character outside visible ASCII at position {i}.";
            }
        }

        return null;
    }
}
