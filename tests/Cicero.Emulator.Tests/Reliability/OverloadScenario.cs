// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// A small topology for overload tests, with its capacity fixed by its resources: 2 front ends call 2 back ends; each
/// request holds one of a back end's 16 disk slots for exactly 10 ms, so the topology completes at most
/// 2 × 16 / 0.010 s = 3,200 requests per second, whatever the load (every other resource is sized well above what
/// that needs). Two compliant tenants offer 10% of that each; the aggressor offers a multiple of it.
/// </summary>
internal static class OverloadScenario
{
    public const int BackEnds = 2;
    /// <summary>Gets the disk slots per back end: 16, or <c>CICERO_OVERLOAD_DISK_SLOTS</c> for the documented comparison.</summary>
    public static int DiskSlots { get; } =
        int.TryParse(Environment.GetEnvironmentVariable("CICERO_OVERLOAD_DISK_SLOTS"), NumberStyles.None, CultureInfo.InvariantCulture, out var slots) && slots > 0 ? slots : 16;
    public const double ServiceTimeMs = 10;
    public const double CompliantShare = 0.10;
    public const string Aggressor = "aggressor";

    public static readonly string[] Compliant = ["c1", "c2"];

    /// <summary>Gets the topology's capacity, requests per second: back ends × disk slots / service time.</summary>
    public static double Capacity => BackEnds * DiskSlots / (ServiceTimeMs / 1000);

    /// <summary>The scenario JSON.</summary>
    /// <param name="aggressorMultiple">The aggressor's offered load as a multiple of <see cref="Capacity"/> once it ramps up.</param>
    /// <param name="duration">Seconds of offered load.</param>
    /// <param name="warmUp">Seconds not measured; the aggressor ramps up at a quarter of it, so rate control has settled when measuring starts.</param>
    /// <param name="configurations">The configurations, as a JSON array.</param>
    public static string Json(double aggressorMultiple, double duration, double warmUp, string configurations)
    {
        var stages = FormattableString.Invariant(
            $$"""[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": {{ServiceTimeMs}} } }] }]""");
        var compliantRate = Capacity * CompliantShare;
        var workflows = string.Join(", ", Compliant.Append(Aggressor).Select(w => $$"""{ "name": "{{w}}", "stages": {{stages}} }"""));
        var workloads = string.Join(", ", Compliant.Select(w => FormattableString.Invariant($$"""{ "workflow": "{{w}}", "kind": "poisson", "ratePerSecond": {{compliantRate}} }""")));
        return FormattableString.Invariant($$"""
            {
              "name": "overload-{{aggressorMultiple}}x",
              "seed": 11,
              "durationSeconds": {{duration}},
              "warmUpSeconds": {{warmUp}},
              "network": { "oneWayDelayMs": 0.25, "rpcTimeoutMs": 2000 },
              "services": [
                { "name": "fe", "instances": 2, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 1024 }, { "name": "connections", "kind": "connection-pool", "capacity": 1024 }] },
                { "name": "be", "instances": {{BackEnds}}, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 1024 }, { "name": "disk", "kind": "disk", "capacity": {{DiskSlots}} }] }
              ],
              "routes": [{ "from": "fe", "to": "be", "strategy": "round-robin" }],
              "workflows": [{{workflows}}],
              "workloads": [
                {{workloads}},
                { "workflow": "{{Aggressor}}", "kind": "poisson", "ratePerSecond": {{compliantRate}},
                  "steps": [{ "atSeconds": {{warmUp / 4}}, "ratePerSecond": {{Capacity * aggressorMultiple}} }] }
              ],
              "configurations": {{configurations}}
            }
            """);
    }

    public static ScenarioSpec Parse(double aggressorMultiple, double duration, double warmUp, string configurations) =>
        ScenarioLoader.Parse(Json(aggressorMultiple, duration, warmUp, configurations));
}
