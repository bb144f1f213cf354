// SPDX-License-Identifier: Apache-2.0

using System.Text;
using System.Text.Json;
using Cicero.Policies.RateLimiting;
using Microsoft.Extensions.Configuration;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Binds a configuration's <c>rateControl</c> JSON object onto <see cref="BottleneckFairnessOptions"/> with the
/// configuration binder, property by property (names case-insensitive, durations as <c>"00:00:02"</c>, nested options as
/// objects): a new option of the policy is usable in a scenario without a scenario field or a command-line flag of its own.
/// </summary>
internal static class RateControlBinding
{
    /// <summary>Binds <paramref name="rateControl"/> onto <paramref name="options"/>; a name the options do not have is an error.</summary>
    /// <exception cref="InvalidOperationException">The object names an unknown option or a value does not convert.</exception>
    /// <exception cref="FormatException">The object is not a JSON object.</exception>
    public static void Bind(JsonElement rateControl, BottleneckFairnessOptions options)
    {
        if (rateControl.ValueKind != JsonValueKind.Object)
        {
            throw new FormatException($"must be a JSON object of BottleneckFairnessOptions' properties, was {rateControl.ValueKind}");
        }

        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(rateControl.GetRawText()));
        var configuration = new ConfigurationBuilder().AddJsonStream(stream).Build();
        configuration.Bind(options, binder => binder.ErrorOnUnknownConfiguration = true);
    }

    /// <summary>Binds onto the preset's options and validates the result; returns the problem, or <see langword="null"/>.</summary>
    public static string? Check(JsonElement rateControl, bool asWritten)
    {
        var options = asWritten ? BottleneckFairnessOptions.AsWritten() : new BottleneckFairnessOptions();
        try
        {
            Bind(rateControl, options);
            _ = BottleneckFairnessPolicy.CreateFactory(RateLimitPolicies.BottleneckFairness, options);
            return null;
        }
        catch (Exception ex) when (ex is InvalidOperationException or FormatException or ArgumentException)
        {
            return ex.Message;
        }
    }
}
