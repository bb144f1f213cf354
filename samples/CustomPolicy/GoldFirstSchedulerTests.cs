// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;
using Cicero.Testing;

namespace CustomPolicy;

/// <summary>The conformance suite from Cicero.Testing, plus the scheduler's own ordering.</summary>
public class GoldFirstSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_GoldBeforeOthers_ThenEarliestDeadline()
    {
        var scheduler = NewScheduler();
        scheduler.Enqueue(Ticket(Context("bronze", TimeSpan.FromMilliseconds(1))));
        scheduler.Enqueue(Ticket(Context("gold", TimeSpan.FromSeconds(30))));
        scheduler.Enqueue(Ticket(Context("gold", TimeSpan.FromMilliseconds(2))));

        var deadlines = new List<TimeSpan?>();
        while (scheduler.TryDequeue(Clock.GetTimestamp(), out var ticket))
        {
            deadlines.Add(ticket.Context.Deadline);
        }

        Assert.Equal([TimeSpan.FromMilliseconds(2), TimeSpan.FromSeconds(30), TimeSpan.FromMilliseconds(1)], deadlines);
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) =>
        GoldFirstScheduler.CreateFactory(new HashSet<string> { "gold", "w0" }).Create(context);
}
