// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.StorageTopology;

/// <summary>The topology a replay runs on: the plan's default one, or a scenario's, with its permits scaled by <c>--capacity</c>.</summary>
internal static class ReplayTopology
{
    /// <summary>Changes the plan's scenario in place.</summary>
    /// <param name="plan">The plan.</param>
    /// <param name="topology">The scenario whose services, routes, network and entry service replace the default topology's; none keeps it.</param>
    /// <param name="capacity">The factor every resource's permits are scaled by (rounded up, at least 1, at most <see cref="ScenarioLimits.MaxCapacity"/>).</param>
    /// <returns><paramref name="plan"/>.</returns>
    public static TraceReplayPlan Apply(TraceReplayPlan plan, ScenarioSpec? topology, double capacity)
    {
        var scenario = plan.Scenario;
        if (topology is not null)
        {
            scenario.Services = topology.Services;
            scenario.Routes = topology.Routes ?? scenario.Routes;
            scenario.Network = topology.Network ?? scenario.Network;
            scenario.EntryService = topology.EntryService;
            scenario.Faults = topology.Faults;
            scenario.Seed = topology.Seed;
        }

        if (capacity != 1)
        {
            foreach (var resource in (scenario.Services ?? []).SelectMany(static s => s.Resources ?? []))
            {
                resource.Capacity = (int)Math.Clamp(Math.Ceiling(resource.Capacity * capacity), 1, ScenarioLimits.MaxCapacity);
            }
        }

        return plan;
    }
}
