// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class ShortestJobFirstSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_SmallestEstimatedTotalWorkFirst_UnknownLast()
    {
        var scheduler = NewScheduler();
        var unknown = Ticket(Context("a"));
        var big = Ticket(Context("b", null, 0, new ProgressDelta(0, 4.0)));
        var small = Ticket(Context("c", null, 0, new ProgressDelta(0, 0.5)));
        foreach (var ticket in new[] { unknown, big, small })
        {
            scheduler.Enqueue(ticket);
        }

        Assert.Equal([small.Id, big.Id, unknown.Id], DrainIds(scheduler));
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => ShortestJobFirstScheduler.Factory.Create(context);
}
