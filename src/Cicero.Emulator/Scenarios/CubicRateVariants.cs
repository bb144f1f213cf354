// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Scenarios;

/// <summary>The names scenarios and the C3 simulation command give C3's rate-control variants.</summary>
public static class CubicRateVariants
{
    /// <summary>Gets the accepted names, quoted, for error messages.</summary>
    public const string Names = "'published', 'binding-limit' or 'delay-guarded'";

    /// <summary>Reads a variant's name (case-insensitive).</summary>
    /// <param name="name">The name; <see langword="null"/> when not given.</param>
    /// <returns>The variant, or <see langword="null"/> when the name is missing or unknown.</returns>
    public static CubicRateVariant? Parse(string? name) => name?.ToLowerInvariant() switch
    {
        "published" => CubicRateVariant.Published,
        "binding-limit" => CubicRateVariant.BindingLimit,
        "delay-guarded" => CubicRateVariant.DelayGuarded,
        _ => null,
    };
}
