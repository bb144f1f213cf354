// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Tests.Resources;

public class FifoSchedulerTests
{
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void TryDequeue_ReturnsEveryTicketOnce_InArrivalOrder()
    {
        var scheduler = new FifoScheduler();
        for (var i = 1; i <= 100; i++)
        {
            scheduler.Enqueue(Ticket(i));
        }

        var ids = new List<long>();
        while (scheduler.TryDequeue(0, out var ticket))
        {
            ids.Add(ticket.Id);
        }

        Assert.Equal(Enumerable.Range(1, 100).Select(i => (long)i), ids);
        Assert.Equal(0, scheduler.Count);
    }

    [Fact]
    public void TryRemove_RemovesOnlyThatTicket_KeepingOrder()
    {
        var scheduler = new FifoScheduler();
        for (var i = 1; i <= 5; i++)
        {
            scheduler.Enqueue(Ticket(i));
        }

        Assert.True(scheduler.TryRemove(Ticket(3)));
        Assert.False(scheduler.TryRemove(Ticket(3)));

        var ids = new List<long>();
        while (scheduler.TryDequeue(0, out var ticket))
        {
            ids.Add(ticket.Id);
        }

        Assert.Equal([1L, 2, 4, 5], ids);
    }

    [Fact]
    public void Factory_HasConfigurationName()
    {
        var context = new SubtaskSchedulerContext("r", 1, TimeSpan.TicksPerSecond, _registry);

        Assert.Equal(SubtaskSchedulers.Fifo, FifoScheduler.Factory.Name);
        Assert.IsType<FifoScheduler>(FifoScheduler.Factory.Create(context));
    }

    private SubtaskTicket Ticket(long id) => new()
    {
        Id = id,
        Workflow = _registry.Resolve("w"),
        Context = RequestContext.Start("w", TimeProvider.System),
    };
}
