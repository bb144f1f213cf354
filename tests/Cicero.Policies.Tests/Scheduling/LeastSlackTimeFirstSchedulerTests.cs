// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class LeastSlackTimeFirstSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_SameDeadline_LessSlackFirst_WhereEdfKeepsArrivalOrder()
    {
        // Same deadline (100 ms) and start; A has 40 ms of service left (T 50, elapsed 10), B has 10 ms (T 20, elapsed 10).
        // Slack: A = 100 − 40 = 60 ms, B = 100 − 10 = 90 ms. LSTF serves A first; EDF ties and keeps arrival order (B, A).
        var b = Ticket(Context("b", TimeSpan.FromMilliseconds(100), 0.010, new ProgressDelta(0.020, 0)));
        var a = Ticket(Context("a", TimeSpan.FromMilliseconds(100), 0.010, new ProgressDelta(0.050, 0)));
        var lstf = NewScheduler();
        var edf = EarliestDeadlineFirstScheduler.Factory.Create(new SubtaskSchedulerContext("r", 1, TimeSpan.TicksPerSecond, Registry));

        foreach (var scheduler in new[] { lstf, edf })
        {
            scheduler.Enqueue(b);
            scheduler.Enqueue(a);
        }

        Assert.Equal([a.Id, b.Id], DrainIds(lstf));
        Assert.Equal([b.Id, a.Id], DrainIds(edf));
    }

    [Fact]
    public void TryDequeue_SlackCanReverseDeadlineOrder()
    {
        // A: deadline 100 ms, 80 ms of work left → slack 20 ms. B: deadline 50 ms, nothing left → slack 50 ms.
        var scheduler = NewScheduler();
        var a = Ticket(Context("a", TimeSpan.FromMilliseconds(100), 0, new ProgressDelta(0.080, 0)));
        var b = Ticket(Context("b", TimeSpan.FromMilliseconds(50)));
        scheduler.Enqueue(b);
        scheduler.Enqueue(a);

        Assert.Equal([a.Id, b.Id], DrainIds(scheduler));
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => LeastSlackTimeFirstScheduler.Factory.Create(context);
}
