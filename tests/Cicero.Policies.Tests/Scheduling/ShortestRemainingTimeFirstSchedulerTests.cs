// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class ShortestRemainingTimeFirstSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_LeastRemainingServiceTimeFirst_UnknownLast()
    {
        var scheduler = NewScheduler();
        var unknown = Ticket(Context("a"));
        var long_ = Ticket(Context("b", null, 0.010, new ProgressDelta(0.100, 0)));   // 90 ms left
        var short_ = Ticket(Context("c", null, 0.040, new ProgressDelta(0.050, 0)));  // 10 ms left
        var done = Ticket(Context("d", null, 0.060, new ProgressDelta(0.050, 0)));    // over its estimate: 0 left
        foreach (var ticket in new[] { unknown, long_, short_, done })
        {
            scheduler.Enqueue(ticket);
        }

        Assert.Equal([done.Id, short_.Id, long_.Id, unknown.Id], DrainIds(scheduler));
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => ShortestRemainingTimeFirstScheduler.Factory.Create(context);
}
