// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology;

/// <summary>What the command line asked for.</summary>
internal sealed record RunSettings(string? Scenario, string Output, int? Seed, double? Duration, string Runner, string? Addresses = null, string? Host = null, string Listen = "127.0.0.1", string? Monitor = null, int? RateExchangePortOffset = null, int ListenPortOffset = 0, double? SlowFactor = null, IReadOnlyList<string>? PolicyAssemblies = null);
