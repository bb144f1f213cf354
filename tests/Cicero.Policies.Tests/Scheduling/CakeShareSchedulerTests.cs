// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class CakeShareSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_Shares1To3_ServesInProportion()
    {
        var options = new CakeShareOptions();
        options.Shares["batch"] = 1;
        options.Shares["frontend"] = 3;
        var scheduler = new CakeShareScheduler(options, Registry);
        scheduler.OnCapacityChanged(1);
        for (var i = 0; i < 1000; i++)
        {
            scheduler.Enqueue(Ticket(Context("batch")));
            scheduler.Enqueue(Ticket(Context("frontend")));
        }

        var served = new Dictionary<string, int> { ["batch"] = 0, ["frontend"] = 0 };
        for (var i = 0; i < 800; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            served[ticket.Workflow.Id.Value]++;
            Complete(scheduler, ticket);
        }

        Assert.InRange(served["frontend"], 595, 605);
        Assert.InRange(served["batch"], 195, 205);
    }

    [Fact]
    public async Task Reservation_KeepsPermitFreeForItsWorkflow_EvenWhileIdle()
    {
        var options = new CakeShareOptions();
        options.Reservations["frontend"] = 1;
        var scheduler = new CakeShareScheduler(options, Registry);
        var resource = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "hdfs", Capacity = 2, RunContinuationsAsynchronously = false }, Registry, scheduler, Clock);

        // Batch may use only the one shared permit, although the reserved one is idle.
        var batch1 = await resource.AcquireAsync(Context("batch"));
        var batch2 = resource.AcquireAsync(Context("batch")).AsTask();
        Assert.False(batch2.IsCompleted);
        Assert.Equal(1, resource.InUse);

        // The front end gets its reserved permit at once, ahead of the waiting batch sub-task.
        var frontend = await resource.AcquireAsync(Context("frontend"));
        Assert.True(frontend.IsAcquired);
        Assert.Equal(2, resource.InUse);

        frontend.Dispose();
        Assert.False(batch2.IsCompleted);
        batch1.Dispose();
        Assert.True((await batch2).IsAcquired);
    }

    [Fact]
    public void TrySetReservation_CannotTakeLastSharedPermit()
    {
        var scheduler = new CakeShareScheduler(new CakeShareOptions(), Registry);
        scheduler.OnCapacityChanged(3);
        var frontend = Registry.Resolve("frontend");

        Assert.True(scheduler.TrySetReservation(frontend, 2));
        Assert.False(scheduler.TrySetReservation(frontend, 3));
        Assert.Equal(2, scheduler.GetReservation(frontend));
    }

    [Fact]
    public void Enqueue_AfterIdle_EarnsNoCredit()
    {
        var scheduler = new CakeShareScheduler(new CakeShareOptions(), Registry);
        scheduler.OnCapacityChanged(1);
        for (var i = 0; i < 100; i++)
        {
            scheduler.Enqueue(Ticket(Context("busy")));
        }

        for (var i = 0; i < 100; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            Complete(scheduler, ticket);
        }

        for (var i = 0; i < 20; i++)
        {
            scheduler.Enqueue(Ticket(Context("busy")));
            scheduler.Enqueue(Ticket(Context("late")));
        }

        var first10 = new List<string>();
        for (var i = 0; i < 10; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            first10.Add(ticket.Workflow.Id.Value);
            Complete(scheduler, ticket);
        }

        Assert.InRange(first10.Count(w => w == "late"), 4, 6);
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => CakeShareScheduler.CreateFactory().Create(context);
}
