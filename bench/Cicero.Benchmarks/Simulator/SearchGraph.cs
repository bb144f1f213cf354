// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;

namespace Cicero.Benchmarks.Simulator;

/// <summary>
/// A search-style graph of 31 instances at scale 1 (3 roots, 4 aggregators, 24 leaves), every tier and the offered load
/// multiplied by the scale, so a request costs the same events at any scale and only the graph's size changes. Two
/// tenants: <c>query</c> (root -> 2 aggregators -> 4 leaves each) and <c>suggest</c> (root -> 1 aggregator -> 2 leaves),
/// at about 60% of the leaves' capacity; configurations baseline, rc and rc+drr as in the default scenario.
/// </summary>
internal static class SearchGraph
{
    public static ScenarioSpec Create(int scale, double durationSeconds)
    {
        var json = string.Create(CultureInfo.InvariantCulture, $$$"""
        {
          "name": "search-{{{scale}}}x",
          "seed": 7,
          "entryService": "root",
          "durationSeconds": {{{durationSeconds}}},
          "warmUpSeconds": 5,
          "network": {"oneWayDelayMs": 0.25, "rpcTimeoutMs": 2000},
          "services": [
            {"name": "root", "instances": {{{3 * scale}}}, "resources": [{"name": "threads", "kind": "thread-pool", "capacity": 512}, {"name": "connections", "kind": "connection-pool", "capacity": 1024}, {"name": "cpu", "kind": "compute", "capacity": 4}]},
            {"name": "agg", "instances": {{{4 * scale}}}, "resources": [{"name": "threads", "kind": "thread-pool", "capacity": 512}, {"name": "connections", "kind": "connection-pool", "capacity": 1024}, {"name": "cpu", "kind": "compute", "capacity": 4}]},
            {"name": "leaf", "instances": {{{24 * scale}}}, "resources": [{"name": "threads", "kind": "thread-pool", "capacity": 256}, {"name": "cpu", "kind": "compute", "capacity": 2}]}
          ],
          "workflows": [
            {"name": "query", "stages": [
              {"use": "cpu", "serviceTime": {"distribution": "exponential", "meanMs": 0.5}},
              {"call": "agg", "count": 2, "stages": [
                {"use": "cpu", "serviceTime": {"distribution": "exponential", "meanMs": 0.5}},
                {"call": "leaf", "count": 4, "stages": [{"use": "cpu", "serviceTime": {"distribution": "exponential", "meanMs": 5}}]}
              ]}
            ]},
            {"name": "suggest", "stages": [
              {"call": "agg", "stages": [
                {"call": "leaf", "count": 2, "stages": [{"use": "cpu", "serviceTime": {"distribution": "exponential", "meanMs": 5}}]}
              ]}
            ]}
          ],
          "workloads": [
            {"workflow": "query", "kind": "poisson", "ratePerSecond": {{{500 * scale}}}},
            {"workflow": "suggest", "kind": "poisson", "ratePerSecond": {{{400 * scale}}}}
          ],
          "configurations": [
            {"name": "baseline", "rateControl": false, "scheduler": "fifo", "dropPolicy": "never"},
            {"name": "rc", "rateControl": true, "scheduler": "fifo", "dropPolicy": "deadline-feasibility"},
            {"name": "rc+drr", "rateControl": true, "scheduler": "drr", "dropPolicy": "deadline-feasibility"}
          ]
        }
        """);
        return ScenarioLoader.Parse(json, "search-graph");
    }
}
