// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

/// <summary>A two-key ordering (class, then deadline) on <see cref="KeyOrderedScheduler{TKey}"/>, with the conformance suite.</summary>
public class KeyOrderedSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_TupleKey_OrdersByClassThenDeadlineThenArrival()
    {
        var scheduler = NewScheduler();
        var late = TimeSpan.FromSeconds(9);
        var soon = TimeSpan.FromMilliseconds(5);

        // Deadlines far apart in magnitude: a packed double (class * 1e6 + deadline) would need care; the tuple does not.
        scheduler.Enqueue(Ticket(Context("batch-1", soon)));
        scheduler.Enqueue(Ticket(Context("gold-late", late)));
        scheduler.Enqueue(Ticket(Context("gold-soon", soon)));
        scheduler.Enqueue(Ticket(Context("gold-none")));
        scheduler.Enqueue(Ticket(Context("gold-soon-2", soon)));
        scheduler.Enqueue(Ticket(Context("batch-2", late)));

        var order = new List<string>();
        while (scheduler.TryDequeue(Clock.GetTimestamp(), out var ticket))
        {
            order.Add(ticket.Workflow.Id.Value);
        }

        Assert.Equal(["gold-soon", "gold-soon-2", "gold-late", "gold-none", "batch-1", "batch-2"], order);
    }

    [Fact]
    public void EnqueueAndDequeue_SteadyState_DoesNotAllocate()
    {
        var scheduler = NewScheduler();
        var tickets = Enumerable.Range(0, 64).Select(i => Ticket(Context(i % 2 == 0 ? "gold" : "batch", TimeSpan.FromMilliseconds(1 + i)))).ToArray();
        Cycle(scheduler, tickets);

        var before = GC.GetAllocatedBytesForCurrentThread();
        Cycle(scheduler, tickets);

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => new ClassThenDeadlineScheduler();

    private void Cycle(ISubtaskScheduler scheduler, SubtaskTicket[] tickets)
    {
        foreach (var ticket in tickets)
        {
            scheduler.Enqueue(ticket);
        }

        while (scheduler.TryDequeue(Clock.GetTimestamp(), out _))
        {
        }
    }

    /// <summary>Gold workflows first; within a class the earliest deadline (none = last).</summary>
    private sealed class ClassThenDeadlineScheduler : KeyOrderedScheduler<(int Class, long Deadline)>
    {
        protected override (int Class, long Deadline) GetKey(in SubtaskTicket ticket) =>
            (ticket.Workflow.Id.Value.StartsWith("gold", StringComparison.Ordinal) ? 0 : 1, ticket.DeadlineTimestamp);
    }
}
