// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class LeastAttainedServiceSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_LeastElapsedServiceFirst()
    {
        var scheduler = NewScheduler();
        var veteran = Ticket(Context("a", null, 0.300));
        var newcomer = Ticket(Context("b", null, 0));
        var middle = Ticket(Context("c", null, 0.050));
        foreach (var ticket in new[] { veteran, newcomer, middle })
        {
            scheduler.Enqueue(ticket);
        }

        Assert.Equal([newcomer.Id, middle.Id, veteran.Id], DrainIds(scheduler));
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => LeastAttainedServiceScheduler.Factory.Create(context);
}
