// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Scenarios;

/// <summary>The shared checks, each adding an error with its path.</summary>
internal sealed partial class ScenarioValidator
{
    private bool KnownService(string path, string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            Error(path, "is required");
            return false;
        }

        if (_services.ContainsKey(name))
        {
            return true;
        }

        if (_services.Count > 0)
        {
            Error(path, $"unknown service '{name}'; known: {Known(_services.Keys)}");
        }

        return false;
    }

    private bool Name(string path, string? name)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            Error(path, "is required");
            return false;
        }

        foreach (var c in name)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '+'))
            {
                Error(path, $"may contain only letters, digits, '-', '_', '.' and '+', was '{name}'");
                return false;
            }
        }

        return true;
    }

    private bool OneOf(string path, string? value, IReadOnlyList<string> allowed, bool ignoreCase = false)
    {
        var comparison = ignoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
        foreach (var candidate in allowed)
        {
            if (string.Equals(candidate, value, comparison))
            {
                return true;
            }
        }

        Error(path, value is null ? $"is required; one of: {string.Join(", ", allowed)}" : $"must be one of: {string.Join(", ", allowed)}; was '{value}'");
        return false;
    }

    private bool AtLeast(string path, int value, int minimum)
    {
        if (value >= minimum)
        {
            return true;
        }

        Error(path, $"must be >= {minimum}, was {value}");
        return false;
    }

    private bool AtMost(string path, double value, double maximum, string what)
    {
        if (!(value > maximum))
        {
            return true;
        }

        Error(path, $"must be <= {maximum.ToString("N0", CultureInfo.InvariantCulture)} {what}, was {F(value)}");
        return false;
    }

    private bool Positive(string path, double value)
    {
        if (value > 0 && double.IsFinite(value))
        {
            return true;
        }

        Error(path, $"must be > 0, was {F(value)}");
        return false;
    }

    private bool NonNegative(string path, double value)
    {
        if (value >= 0 && double.IsFinite(value))
        {
            return true;
        }

        Error(path, $"must be >= 0, was {F(value)}");
        return false;
    }

    private void Error(string path, string message) => _errors.Add(new ScenarioError(path, message));

    private static string Known(IEnumerable<string> names) => string.Join(", ", names);

    private static string F(double value) => value.ToString("R", CultureInfo.InvariantCulture);
}
