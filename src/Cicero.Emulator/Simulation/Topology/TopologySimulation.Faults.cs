// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Injected faults (<see cref="ScenarioSpec.Faults"/>): each starts and ends as an event on the virtual clock.</summary>
public sealed partial class TopologySimulation
{
    private static readonly Action<object?> OnFaultStart = static state =>
    {
        var (fault, instance) = ((FaultSpec, SimInstance))state!;
        StartFault(fault, instance);
    };

    private static readonly Action<object?> OnFaultEnd = static state =>
    {
        var (fault, instance) = ((FaultSpec, SimInstance))state!;
        EndFault(fault, instance);
    };

    private void ScheduleFaults()
    {
        foreach (var fault in _scenario.Faults ?? [])
        {
            var service = Array.FindIndex(Compiled.Services, s => s.Name == fault.Service);
            var instance = Instances[service][fault.Instance];
            Clock.ScheduleAt(ToTicks(fault.AtSeconds), OnFaultStart, (fault, instance));
            Clock.ScheduleAt(ToTicks(fault.UntilSeconds), OnFaultEnd, (fault, instance));
        }
    }

    private static void StartFault(FaultSpec fault, SimInstance instance)
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

    private static void EndFault(FaultSpec fault, SimInstance instance)
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
