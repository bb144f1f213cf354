// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class EarliestDeadlineFirstSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_NearestDeadlineFirst_NoDeadlineLast_TiesInArrivalOrder()
    {
        var scheduler = NewScheduler();
        var none = Ticket(Context("a"));
        var late = Ticket(Context("b", TimeSpan.FromMilliseconds(300)));
        var early = Ticket(Context("c", TimeSpan.FromMilliseconds(100)));
        var tieFirst = Ticket(Context("d", TimeSpan.FromMilliseconds(200)));
        var tieSecond = Ticket(Context("e", TimeSpan.FromMilliseconds(200)));
        foreach (var ticket in new[] { none, late, early, tieFirst, tieSecond })
        {
            scheduler.Enqueue(ticket);
        }

        Assert.Equal([early.Id, tieFirst.Id, tieSecond.Id, late.Id, none.Id], DrainIds(scheduler));
    }

    [Fact]
    public void TryDequeue_OrdersByRemainingBudget_WhenRequestsStartedAtDifferentTimes()
    {
        var scheduler = NewScheduler();
        // Started 50 ms ago with a 100 ms deadline (50 ms left) beats one starting now with 80 ms.
        var old = Ticket(RequestContext.Create("a", Clock.GetTimestamp(), TimeSpan.FromMilliseconds(100), default, default, default));
        Clock.Advance(TimeSpan.FromMilliseconds(50));
        var fresh = Ticket(Context("b", TimeSpan.FromMilliseconds(80)));
        scheduler.Enqueue(fresh);
        scheduler.Enqueue(old);

        Assert.Equal([old.Id, fresh.Id], DrainIds(scheduler));
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => EarliestDeadlineFirstScheduler.Factory.Create(context);
}
