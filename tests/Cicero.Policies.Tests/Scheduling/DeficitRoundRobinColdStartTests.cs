// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;
using Cicero.Testing;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Scheduling;

/// <summary>
/// Issue 36: DRR must isolate a compliant tenant from a flooding one from a cold start (no completion before the
/// flood). A resource of 4 permits, 5-15 ms sub-tasks, under virtual time: a flood of 16 closed-loop callers from the
/// first instant, and a compliant tenant sending one sub-task every 50 ms for 10 s.
/// </summary>
public sealed class DeficitRoundRobinColdStartTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private const int Permits = 4;

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    public void Compliant_tenant_behind_a_flood_from_a_cold_start_keeps_its_p99_within_twice_its_own(int seed)
    {
        var alone = CompliantLatencies(DeficitRoundRobinScheduler.CreateFactory(), flooders: 0, seed);
        var flooded = CompliantLatencies(DeficitRoundRobinScheduler.CreateFactory(), flooders: 16, seed);

        var fifo = CompliantLatencies(FifoScheduler.Factory, flooders: 16, seed);
        output.WriteLine($"compliant p99: alone {P99(alone) * 1000:F1} ms, behind the flood {P99(flooded) * 1000:F1} ms (FIFO {P99(fifo) * 1000:F1} ms)");
        Assert.Equal(200, alone.Count);
        Assert.Equal(200, flooded.Count);
        Assert.True(
            P99(flooded) <= 2 * P99(alone),
            $"compliant p99 {P99(flooded) * 1000:F1} ms behind the flood against {P99(alone) * 1000:F1} ms alone");
    }

    private static double P99(List<double> latencies)
    {
        latencies.Sort();
        return latencies[(int)Math.Ceiling(0.99 * latencies.Count) - 1];
    }

    /// <summary>Runs the resource by discrete events on a virtual clock; returns the compliant sub-tasks' queue + service times.</summary>
    private static List<double> CompliantLatencies(SubtaskSchedulerFactory factory, int flooders, int seed)
    {
        var clock = new VirtualTimeProvider();
        var registry = new WorkflowRegistry();
        var tickets = new SubtaskTickets(registry, clock);
        var scheduler = factory.Create(new SubtaskSchedulerContext("db", Permits, clock.TimestampFrequency, registry));
        var serviceTimes = new Random(seed);
        var compliantServiceTimes = new Random(seed + 1000);
        var inService = new List<(long End, SubtaskTicket Ticket, double Seconds)>();
        var latencies = new List<double>();
        var end = TimeSpan.FromSeconds(10);
        var nextArrival = TimeSpan.FromMilliseconds(25);
        var compliantCosts = new Dictionary<long, double>();

        for (var i = 0; i < flooders; i++)
        {
            scheduler.Enqueue(tickets.Ticket(tickets.Context("flood")));
        }

        while (true)
        {
            // Start what the free permits allow, in the scheduler's order.
            while (inService.Count < Permits && scheduler.TryDequeue(clock.GetTimestamp(), out var ticket))
            {
                var seconds = ticket.Workflow.Id.Value == "steady" ? compliantCosts[ticket.Id] : 0.005 + (0.01 * serviceTimes.NextDouble());
                inService.Add((clock.GetTimestamp() + (long)(seconds * clock.TimestampFrequency), ticket, seconds));
            }

            var nextEnd = inService.Count > 0 ? inService.Min(s => s.End) : long.MaxValue;
            var arrivalAt = nextArrival < end ? (long)(nextArrival.TotalSeconds * clock.TimestampFrequency) : long.MaxValue;
            if (nextEnd == long.MaxValue && arrivalAt == long.MaxValue)
            {
                return latencies;
            }

            if (arrivalAt <= nextEnd)
            {
                clock.Advance(TimeSpan.FromSeconds((double)(arrivalAt - clock.GetTimestamp()) / clock.TimestampFrequency));
                var ticket = tickets.Ticket(tickets.Context("steady"));
                compliantCosts[ticket.Id] = 0.005 + (0.01 * compliantServiceTimes.NextDouble());
                scheduler.Enqueue(ticket);
                nextArrival += TimeSpan.FromMilliseconds(50);
                continue;
            }

            clock.Advance(TimeSpan.FromSeconds((double)(nextEnd - clock.GetTimestamp()) / clock.TimestampFrequency));
            var done = inService.First(s => s.End == nextEnd);
            inService.Remove(done);
            scheduler.OnCompleted(new SubtaskCompletion(done.Ticket.Workflow, done.Ticket.Context, done.Ticket.Cost, 0, TimeSpan.FromSeconds(done.Seconds)));
            if (done.Ticket.Workflow.Id.Value == "steady")
            {
                latencies.Add((double)(clock.GetTimestamp() - done.Ticket.EnqueuedAt) / clock.TimestampFrequency);
            }
            else if (nextArrival < end)
            {
                // A closed-loop flooder sends its next request as soon as the last one is answered, while the test runs.
                scheduler.Enqueue(tickets.Ticket(tickets.Context("flood")));
            }
        }
    }
}
