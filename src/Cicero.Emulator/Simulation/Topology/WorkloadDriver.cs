// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Drives a scenario's workloads in a run: open-loop arrivals, closed-loop clients and their next requests.</summary>
internal sealed class WorkloadDriver(TopologySimulation simulation, ScenarioSpec scenario, long durationTicks)
{
    private static readonly Action<object?> OnArrival = static state => ((OpenWorkload)state!).Driver.Arrive((OpenWorkload)state);
    private static readonly Action<object?> OnClientsChange = static state => ((ClosedWorkload)state!).Driver.ChangeClients((ClosedWorkload)state);
    private static readonly Action<object?> OnClientSend = static state => ((ClosedLoopClient)state!).Workload.Driver.ClientSend((ClosedLoopClient)state);
    private static readonly long MinimumClientGapTicks = TimeSpan.FromMilliseconds(1).Ticks;

    /// <summary>Schedules each workload's first arrival or client change.</summary>
    public void Start()
    {
        var workloads = scenario.Workloads!;
        for (var w = 0; w < workloads.Count; w++)
        {
            var spec = workloads[w];
            var workflow = simulation.Compiled.Workflows.First(d => d.Name == spec.Workflow);
            var generator = WorkloadGenerator.Create(spec, scenario.DurationSeconds, SeedStreams.Derive(scenario.Seed, SeedStreams.FirstWorkload + w));
            if (generator.IsClosedLoop)
            {
                var closed = new ClosedWorkload(this, workflow, generator);
                ScheduleSeconds(generator.Schedule.NextChangeAfter(-1), OnClientsChange, closed);
            }
            else
            {
                var open = new OpenWorkload(this, workflow, generator);
                ScheduleArrival(open);
            }
        }
    }

    /// <summary>A closed-loop client's request has its outcome: it thinks, then sends the next one.</summary>
    public void ClientDone(ClosedLoopClient client)
    {
        var now = simulation.Now;
        if (!client.Active || now >= durationTicks)
        {
            client.Busy = false;
            return;
        }

        // The reply's and the next request's trips count towards the gap; at least 1 ms, so a client whose requests are
        // turned away at once cannot spin at one instant.
        var think = client.Workload.Generator.ThinkTime is { } thinkTime ? simulation.SampleTicks(thinkTime) : 0;
        var gap = Math.Max(think + (2 * simulation.NetworkTicks), MinimumClientGapTicks);
        simulation.Clock.ScheduleAt(now + gap, OnClientSend, client);
    }

    private void ScheduleSeconds(double seconds, Action<object?> callback, object state)
    {
        if (double.IsFinite(seconds) && seconds < scenario.DurationSeconds)
        {
            simulation.Clock.ScheduleAt(TopologySimulation.ToTicks(seconds), callback, state);
        }
    }

    private void ScheduleArrival(OpenWorkload workload)
    {
        workload.Next = workload.Generator.NextArrivalAfter(workload.Next);
        ScheduleSeconds(workload.Next, OnArrival, workload);
    }

    private void Arrive(OpenWorkload workload)
    {
        if (simulation.Stopped)
        {
            return;
        }

        simulation.Offer(workload.Workflow, workload.Generator.Random, client: null);
        ScheduleArrival(workload);
    }

    private void ChangeClients(ClosedWorkload workload)
    {
        var now = simulation.Now;
        var seconds = (double)now / TimeSpan.TicksPerSecond;
        var target = (int)workload.Generator.Schedule.ValueAt(seconds);
        while (workload.Clients.Count < target)
        {
            workload.Clients.Add(new ClosedLoopClient(workload, workload.Clients.Count));
        }

        for (var c = 0; c < workload.Clients.Count; c++)
        {
            var client = workload.Clients[c];
            client.Active = c < target;
            if (client.Active && !client.Busy)
            {
                client.Busy = true;
                simulation.Clock.ScheduleAt(now, OnClientSend, client);
            }
        }

        ScheduleSeconds(workload.Generator.Schedule.NextChangeAfter(seconds), OnClientsChange, workload);
    }

    private void ClientSend(ClosedLoopClient client)
    {
        if (!client.Active || simulation.Now >= durationTicks || simulation.Stopped)
        {
            client.Busy = false;
            return;
        }

        simulation.Offer(client.Workload.Workflow, client.Workload.Generator.Random, client);
    }
}
