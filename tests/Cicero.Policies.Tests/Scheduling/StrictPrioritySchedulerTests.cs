// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class StrictPrioritySchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_HigherPriorityWorkflowAlwaysFirst()
    {
        var scheduler = NewScheduler();
        var low = Enumerable.Range(0, 3).Select(_ => Ticket(Context("batch"))).ToList();
        var high = Enumerable.Range(0, 2).Select(_ => Ticket(Context("interactive"))).ToList();
        var normal = Ticket(Context("other"));
        low.ForEach(t => scheduler.Enqueue(t));
        scheduler.Enqueue(normal);
        high.ForEach(t => scheduler.Enqueue(t));

        Assert.Equal([high[0].Id, high[1].Id, normal.Id, low[0].Id, low[1].Id, low[2].Id], DrainIds(scheduler));
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context)
    {
        var options = new StrictPriorityOptions { DefaultPriority = 0 };
        options.Priorities["interactive"] = 10;
        options.Priorities["batch"] = -5;
        return StrictPriorityScheduler.CreateFactory(options).Create(context);
    }
}
