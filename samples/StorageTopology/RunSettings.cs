// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology;

/// <summary>What the command line asked for; <paramref name="Harness"/> only from the hidden <see cref="HarnessCommand"/>.</summary>
internal sealed record RunSettings(string? Scenario, string Output, int? Seed, double? Duration, string Runner, string? Addresses = null, string? Host = null, string Listen = "127.0.0.1", IReadOnlyList<string>? PolicyAssemblies = null, HarnessSettings? Harness = null);

/// <summary>The network-namespace harness's instruments (eng/netns): a monitor file, port offsets and a slow-down factor on SIGUSR1.</summary>
internal sealed record HarnessSettings(string? Monitor, int? RateExchangePortOffset, int ListenPortOffset, double? SlowFactor);
