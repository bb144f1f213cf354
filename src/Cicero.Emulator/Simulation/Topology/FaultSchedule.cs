// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Injected faults (<see cref="ScenarioSpec.Faults"/>): each starts and ends as an event on the virtual clock.</summary>
internal static class FaultSchedule
{
    private static readonly Action<object?> OnFaultStart = static state =>
    {
        var (fault, instance) = ((FaultSpec, SimInstance))state!;
        Start(fault, instance);
    };

    private static readonly Action<object?> OnFaultEnd = static state =>
    {
        var (fault, instance) = ((FaultSpec, SimInstance))state!;
        End(fault, instance);
    };

    /// <summary>Schedules the start and end of every fault of the scenario.</summary>
    public static void Schedule(TopologySimulation simulation, IEnumerable<FaultSpec>? faults)
    {
        foreach (var fault in faults ?? [])
        {
            var service = Array.FindIndex(simulation.Compiled.Services, s => s.Name == fault.Service);
            var instance = simulation.Instances[service][fault.Instance];
            simulation.Clock.ScheduleAt(TopologySimulation.ToTicks(fault.AtSeconds), OnFaultStart, (fault, instance));
            simulation.Clock.ScheduleAt(TopologySimulation.ToTicks(fault.UntilSeconds), OnFaultEnd, (fault, instance));
        }
    }

    private static void Start(FaultSpec fault, SimInstance instance)
    {
        switch (fault.Kind)
        {
            case FaultKinds.Kill:
                instance.IsDown = true;

                // Its callers' connections reset: every call it was serving fails now (one hop later at the caller).
                var serving = instance.Serving.ToArray();
                instance.Serving.Clear();
                foreach (var frame in serving)
                {
                    frame.ConnectionLost();
                }

                break;
            case FaultKinds.Slow:
                instance.FaultFactor = fault.Factor;
                break;
            default:
                instance.RateExchangeLost = true;
                break;
        }
    }

    private static void End(FaultSpec fault, SimInstance instance)
    {
        switch (fault.Kind)
        {
            case FaultKinds.Kill:
                instance.IsDown = false;
                break;
            case FaultKinds.Slow:
                instance.FaultFactor = 1;
                break;
            default:
                instance.RateExchangeLost = false;
                break;
        }
    }
}
