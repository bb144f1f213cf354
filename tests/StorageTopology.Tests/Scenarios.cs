// SPDX-License-Identifier: Apache-2.0

namespace Cicero.StorageTopology.Tests;

/// <summary>Small scenario files for the command line: two front ends, three back ends, one workflow.</summary>
internal static class Scenarios
{
    public static string Tiny(double duration, double ratePerSecond = 50, double serviceMs = 5, string? stages = null) => $$"""
        {
          "name": "tiny",
          "seed": 7,
          "durationSeconds": {{duration}},
          "warmUpSeconds": 1,
          "services": [
            { "name": "fe", "instances": 2, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 64 }, { "name": "connections", "kind": "connection-pool", "capacity": 64 }] },
            { "name": "be", "instances": 3, "resources": [{ "name": "threads", "kind": "thread-pool", "capacity": 64 }, { "name": "disk", "kind": "disk", "capacity": 8 }] }
          ],
          "routes": [],
          "workflows": [{ "name": "W", "stages": {{stages ?? $$"""[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": {{serviceMs}} } }] }]"""}} }],
          "workloads": [{ "workflow": "W", "kind": "poisson", "ratePerSecond": {{ratePerSecond}} }],
          "configurations": [{ "name": "baseline", "rateControl": false, "dropPolicy": "never" }, { "name": "rc" }]
        }
        """;
}
