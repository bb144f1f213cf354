// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Cicero.Policies.RateLimiting;
using Microsoft.Extensions.Configuration;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// Binds a configuration's <c>rateControl</c> JSON object onto <see cref="BottleneckFairnessOptions"/> with the
/// configuration binder, property by property (names case-insensitive, durations as <c>"00:00:02"</c>, nested options as
/// objects; a stage is turned on with <c>true</c> or an object and off with <c>false</c> or <c>null</c>): a new option
/// of the policy is usable in a scenario without a scenario field or a command-line flag of its own (docs/decisions/0021).
/// </summary>
internal static class RateControlBinding
{
    private static readonly JsonElement True = JsonDocument.Parse("true").RootElement;
    private static readonly JsonElement False = JsonDocument.Parse("false").RootElement;

    /// <summary>The scenario fields the <c>rateControl</c> object replaced, and the property each became in it.</summary>
    private static readonly Dictionary<string, string> RemovedFields = new(StringComparer.OrdinalIgnoreCase)
    {
        ["rateDecreaseLimit"] = "maxDecrease",
        ["rateRampHeadroom"] = "rampHeadroom",
        ["rateTargetLoad"] = "targetLoad",
        ["rateDemandSmoothingMs"] = "demandSmoothingTime",
        ["rateOverloadConfidence"] = "overloadConfidence",
        ["rateHeldRegrowth"] = "heldRateRegrowth",
        ["rateOverloadHold"] = "overloadHold",
        ["rateGoodputLimit"] = "goodputLimit",
    };

    /// <summary><see langword="true"/> or <see langword="false"/> as a JSON value.</summary>
    public static JsonElement Boolean(bool value) => value ? True : False;

    /// <summary>Binds <paramref name="rateControl"/> onto <paramref name="options"/>; a name the options do not have is an error.</summary>
    /// <exception cref="InvalidOperationException">The object names an unknown option or a value does not convert.</exception>
    /// <exception cref="FormatException">The object is not a JSON object.</exception>
    public static void Bind(JsonElement rateControl, BottleneckFairnessOptions options)
    {
        if (rateControl.ValueKind != JsonValueKind.Object)
        {
            throw new FormatException($"must be true, false, or a JSON object of BottleneckFairnessOptions' properties, was {rateControl.ValueKind}");
        }

        // The binder cannot set an option to null, so the stages' on/off switches are applied here, before it runs.
        var json = JsonNode.Parse(rateControl.GetRawText())!.AsObject();
        foreach (var (name, value) in json.ToArray())
        {
            var on = value?.GetValueKind() switch
            {
                null or JsonValueKind.Null or JsonValueKind.False => false,
                JsonValueKind.True or JsonValueKind.Object => true,
                _ => (bool?)null,
            };
            if (on is not { } stageOn || !SetStage(options, name, stageOn))
            {
                continue;
            }

            if (value is not JsonObject)
            {
                json.Remove(name);
            }
        }

        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(json.ToJsonString()));
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

    /// <summary>What to write instead of a field the scenario format no longer has; <see langword="null"/> for a name it never had.</summary>
    public static string? Replacement(string field, JsonElement value)
    {
        if (string.Equals(field, "rateControlOptions", StringComparison.OrdinalIgnoreCase))
        {
            return "was renamed: write its object as the value of \"rateControl\" (\"rateControl\": { ... } turns rate control on with those options)";
        }

        if (!RemovedFields.TryGetValue(field, out var option))
        {
            return null;
        }

        var written = (field.ToUpperInvariant(), value.ValueKind) switch
        {
            ("RATEDEMANDSMOOTHINGMS", JsonValueKind.Number) => $"\"{TimeSpan.FromMilliseconds(value.GetDouble()).ToString("c", CultureInfo.InvariantCulture)}\"",
            ("RATEOVERLOADHOLD", JsonValueKind.Number) => $"{{ \"utilization\": {value.GetRawText()} }}",
            _ => value.GetRawText(),
        };
        return $"was removed (docs/decisions/0021): write \"rateControl\": {{ \"{option}\": {written} }}";
    }

    private static bool SetStage(BottleneckFairnessOptions options, string name, bool on)
    {
        if (string.Equals(name, nameof(BottleneckFairnessOptions.HeldRateRegrowth), StringComparison.OrdinalIgnoreCase))
        {
            options.HeldRateRegrowth = on ? options.HeldRateRegrowth ?? new HeldRateRegrowthOptions() : null;
        }
        else if (string.Equals(name, nameof(BottleneckFairnessOptions.OverloadHold), StringComparison.OrdinalIgnoreCase))
        {
            options.OverloadHold = on ? options.OverloadHold ?? new OverloadHoldOptions() : null;
        }
        else if (string.Equals(name, nameof(BottleneckFairnessOptions.GoodputLimit), StringComparison.OrdinalIgnoreCase))
        {
            options.GoodputLimit = on ? options.GoodputLimit ?? new GoodputLimitOptions() : null;
        }
        else
        {
            return false;
        }

        return true;
    }
}
