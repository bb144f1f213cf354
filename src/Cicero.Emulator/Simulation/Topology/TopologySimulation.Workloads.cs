// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Driving workloads: open-loop arrivals, closed-loop clients and their requests.</summary>
public sealed partial class TopologySimulation
{
    private void StartWorkloads()
    {
        var workloads = _scenario.Workloads!;
        for (var w = 0; w < workloads.Count; w++)
        {
            var spec = workloads[w];
            var workflow = Compiled.Workflows.First(d => d.Name == spec.Workflow);
            var generator = WorkloadGenerator.Create(spec, _scenario.DurationSeconds, SeedStreams.Derive(_scenario.Seed, SeedStreams.FirstWorkload + w));
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

    private void ScheduleSeconds(double seconds, Action<object?> callback, object state)
    {
        if (double.IsFinite(seconds) && seconds < _scenario.DurationSeconds)
        {
            Clock.ScheduleAt(ToTicks(seconds), callback, state);
        }
    }

    private void ScheduleArrival(OpenWorkload workload)
    {
        workload.Next = workload.Generator.NextArrivalAfter(workload.Next);
        ScheduleSeconds(workload.Next, OnArrival, workload);
    }

    private void Arrive(OpenWorkload workload)
    {
        if (Stopped)
        {
            return;
        }

        Offer(workload.Workflow, workload.Generator.Random, client: null);
        ScheduleArrival(workload);
    }

    private void ChangeClients(ClosedWorkload workload)
    {
        var now = Now;
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
                Clock.ScheduleAt(now, OnClientSend, client);
            }
        }

        ScheduleSeconds(workload.Generator.Schedule.NextChangeAfter(seconds), OnClientsChange, workload);
    }

    private void ClientSend(ClosedLoopClient client)
    {
        if (!client.Active || Now >= _durationTicks || Stopped)
        {
            client.Busy = false;
            return;
        }

        Offer(client.Workload.Workflow, client.Workload.Generator.Random, client);
    }

    private void ClientDone(ClosedLoopClient client)
    {
        if (!client.Active || Now >= _durationTicks)
        {
            client.Busy = false;
            return;
        }

        // The reply's and the next request's trips count towards the gap; at least 1 ms, so a client whose requests are
        // turned away at once cannot spin at one instant.
        var think = client.Workload.Generator.ThinkTime is { } thinkTime ? SampleTicks(thinkTime) : 0;
        var gap = Math.Max(think + (2 * NetworkTicks), MinimumClientGapTicks);
        Clock.ScheduleAt(Now + gap, OnClientSend, client);
    }

    private void Offer(WorkflowDef workflow, Random random, ClosedLoopClient? client)
    {
        // Entry instance and partition come from the workload's own stream, so every configuration sees the same load.
        var now = Now;
        var entries = Instances[workflow.Entry.Index];
        var entry = entries[random.Next(entries.Length)];
        var partition = random.Next(workflow.Partitions);
        var request = new SimRequest(this, ++_nextRequestId, workflow, partition, now, now >= WindowStartTicks && now < WindowEndTicks, client);
        _inFlight++;
        _metrics.Offered(request, Second(now));
        _timeouts.Add(request, now + RpcTimeoutTicks);
        new EntryFrame(entry, request).Start();
    }
}
