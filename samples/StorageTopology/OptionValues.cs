// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.CommandLine.Parsing;
using System.Globalization;

namespace Cicero.StorageTopology;

/// <summary>
/// Numeric options that say what they expect when given something else ("--seed: 'abc' is not a whole number"), instead
/// of the parser's message naming a .NET type.
/// </summary>
internal static class OptionValues
{
    /// <summary>An optional whole number, at least <paramref name="minimum"/>.</summary>
    public static Option<int?> OptionalInt(string name, string description, int minimum = int.MinValue) => new(name)
    {
        Description = description,
        CustomParser = result => ParseInt(result, name, minimum),
    };

    /// <summary>A whole number with a default, at least <paramref name="minimum"/>.</summary>
    public static Option<int> Int(string name, string description, int defaultValue, int minimum) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => result.Tokens.Count == 0 ? defaultValue : ParseInt(result, name, minimum) ?? defaultValue,
    };

    /// <summary>An optional finite number above <paramref name="exclusiveMinimum"/>.</summary>
    public static Option<double?> OptionalPositive(string name, string description, double exclusiveMinimum = 0) => new(name)
    {
        Description = description,
        CustomParser = result => ParseDouble(result, name, exclusiveMinimum),
    };

    /// <summary>A finite number above zero with a default.</summary>
    public static Option<double> Positive(string name, string description, double defaultValue) => new(name)
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = result => result.Tokens.Count == 0 ? defaultValue : ParseDouble(result, name, 0) ?? defaultValue,
    };

    private static int? ParseInt(ArgumentResult result, string name, int minimum)
    {
        if (result.Tokens.Count == 0)
        {
            return null;
        }

        var text = result.Tokens[^1].Value;
        if (!int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value))
        {
            result.AddError($"{name}: {CommandErrors.Echo(text)} is not a whole number.");
            return null;
        }

        if (value < minimum)
        {
            result.AddError($"{name}: must be at least {minimum}, was {value}.");
            return null;
        }

        return value;
    }

    private static double? ParseDouble(ArgumentResult result, string name, double exclusiveMinimum)
    {
        if (result.Tokens.Count == 0)
        {
            return null;
        }

        var text = result.Tokens[^1].Value;
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !double.IsFinite(value))
        {
            result.AddError($"{name}: {CommandErrors.Echo(text)} is not a number.");
            return null;
        }

        if (!(value > exclusiveMinimum))
        {
            result.AddError($"{name}: must be greater than {exclusiveMinimum.ToString(CultureInfo.InvariantCulture)}, was {text}.");
            return null;
        }

        return value;
    }
}
