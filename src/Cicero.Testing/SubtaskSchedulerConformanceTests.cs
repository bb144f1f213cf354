// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Testing;

/// <summary>
/// What every <see cref="ISubtaskScheduler"/> must do, whatever its order: every ticket comes out exactly once,
/// removal takes out only the given ticket, <see cref="ISubtaskScheduler.Count"/> is exact, and behind a real
/// <see cref="ResourceSemaphore"/> the queue bound and cancellation hold. Each scheduler's tests inherit this.
/// </summary>
/// <remarks>
/// Derive a public test class, implement <see cref="CreateScheduler"/>, and add the facts specific to your ordering on
/// top; <see cref="Context"/> and <see cref="Ticket"/> build requests on the suite's <see cref="Clock"/>. A new
/// instance (registry, clock) per test, as xunit creates one per fact.
/// </remarks>
public abstract class SubtaskSchedulerConformanceTests
{
    private readonly SubtaskTickets _tickets;

    /// <summary>Creates the suite's registry, clock and ticket source.</summary>
    protected SubtaskSchedulerConformanceTests()
    {
        _tickets = new SubtaskTickets(Registry, Clock);
    }

    /// <summary>Gets the workflow registry the tickets are resolved in.</summary>
    protected WorkflowRegistry Registry { get; } = new();

    /// <summary>Gets the virtual clock the tickets are stamped with; advance it to age requests.</summary>
    protected VirtualTimeProvider Clock { get; } = new();

    /// <summary>Every ticket enqueued comes out exactly once, and <see cref="ISubtaskScheduler.Count"/> follows.</summary>
    [Fact]
    public void TryDequeue_EveryTicketComesOutExactlyOnce()
    {
        var scheduler = NewScheduler();
        var random = new Random(7);
        var enqueued = new HashSet<long>();
        for (var i = 0; i < 500; i++)
        {
            var ticket = RandomTicket(random);
            scheduler.Enqueue(ticket);
            enqueued.Add(ticket.Id);
        }

        Assert.Equal(500, scheduler.Count);
        var seen = DrainIds(scheduler);

        Assert.Equal(500, seen.Count);
        Assert.Equal(enqueued, seen.ToHashSet());
        Assert.Equal(0, scheduler.Count);
        Assert.False(scheduler.TryDequeue(Clock.GetTimestamp(), out _));
    }

    /// <summary>Interleaved enqueues, dequeues and completions lose and duplicate nothing.</summary>
    [Fact]
    public void TryDequeue_InterleavedWithEnqueue_ConservesTickets()
    {
        var scheduler = NewScheduler();
        var random = new Random(11);
        var enqueued = new HashSet<long>();
        var seen = new List<long>();
        for (var round = 0; round < 200; round++)
        {
            for (var i = random.Next(0, 4); i > 0; i--)
            {
                var ticket = RandomTicket(random);
                scheduler.Enqueue(ticket);
                enqueued.Add(ticket.Id);
            }

            if (scheduler.TryDequeue(Clock.GetTimestamp(), out var next))
            {
                seen.Add(next.Id);
                Complete(scheduler, next);
            }
        }

        seen.AddRange(DrainIds(scheduler));
        Assert.Equal(enqueued.Count, seen.Count);
        Assert.Equal(enqueued, seen.ToHashSet());
    }

    /// <summary>Cancellation removes exactly the given ticket, once.</summary>
    [Fact]
    public void TryRemove_TakesOutOnlyThatTicket_AndCountFollows()
    {
        var scheduler = NewScheduler();
        var random = new Random(3);
        var tickets = Enumerable.Range(0, 50).Select(_ => RandomTicket(random)).ToList();
        tickets.ForEach(t => scheduler.Enqueue(t));

        var removed = tickets.Where((_, i) => i % 5 == 2).ToList();
        foreach (var ticket in removed)
        {
            Assert.True(scheduler.TryRemove(ticket));
            Assert.False(scheduler.TryRemove(ticket));
        }

        Assert.Equal(40, scheduler.Count);
        var rest = DrainIds(scheduler);
        Assert.Equal(tickets.Except(removed).Select(t => t.Id).ToHashSet(), rest.ToHashSet());
        Assert.Equal(40, rest.Count);
    }

    /// <summary>Behind a real <see cref="ResourceSemaphore"/>, the queue bound, cancellation and release hold.</summary>
    /// <returns>The test.</returns>
    [Fact]
    public async Task BehindResourceSemaphore_QueueBoundAndCancellationHold()
    {
        var resource = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "disk", Capacity = 1, MaxQueueLength = 3, RunContinuationsAsynchronously = false },
            Registry,
            NewScheduler(capacity: 1),
            Clock);
        var held = await resource.AcquireAsync(Context("a", TimeSpan.FromSeconds(5)));
        Assert.True(held.IsAcquired);
        using var cts = new CancellationTokenSource();
        var first = resource.AcquireAsync(Context("b", TimeSpan.FromSeconds(1))).AsTask();
        var cancelled = resource.AcquireAsync(Context("c", TimeSpan.FromSeconds(2)), cancellationToken: cts.Token).AsTask();
        var third = resource.AcquireAsync(Context("a", TimeSpan.FromSeconds(3))).AsTask();

        var rejected = await resource.AcquireAsync(Context("b", TimeSpan.FromSeconds(4)));
        Assert.Equal(DropReason.QueueFull, rejected.RejectionReason);

        cts.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);
        Assert.Equal(2, resource.QueueLength);

        held.Dispose();
        var next = await (await Task.WhenAny(first, third));
        next.Dispose();
        (await first).Dispose();
        (await third).Dispose();
        Assert.Equal(0, resource.InUse);
        Assert.Equal(0, resource.QueueLength);
    }

    /// <summary>Creates the scheduler under test for one resource.</summary>
    /// <param name="context">The resource: name, capacity, timestamp frequency, registry.</param>
    /// <returns>A new scheduler.</returns>
    protected abstract ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context);

    /// <summary>Creates the scheduler for a resource named <c>disk</c> and tells it the capacity.</summary>
    /// <param name="capacity">The resource's permits.</param>
    /// <returns>The scheduler.</returns>
    protected ISubtaskScheduler NewScheduler(int capacity = 1000)
    {
        var scheduler = CreateScheduler(new SubtaskSchedulerContext("disk", capacity, TimeSpan.TicksPerSecond, Registry));
        scheduler.OnCapacityChanged(capacity);
        return scheduler;
    }

    /// <inheritdoc cref="SubtaskTickets.Context"/>
    protected RequestContext Context(string workflow, TimeSpan? deadline = null, double elapsedServiceTime = 0, ProgressDelta estimate = default) =>
        _tickets.Context(workflow, deadline, elapsedServiceTime, estimate);

    /// <inheritdoc cref="SubtaskTickets.Ticket"/>
    protected SubtaskTicket Ticket(RequestContext context, double cost = 1) => _tickets.Ticket(context, cost);

    /// <summary>Takes every ticket, reporting each as completed at once, as a resource with spare permits would.</summary>
    /// <param name="scheduler">The scheduler.</param>
    /// <returns>The ticket ids in the order they came out.</returns>
    protected List<long> DrainIds(ISubtaskScheduler scheduler)
    {
        var ids = new List<long>();
        while (scheduler.TryDequeue(Clock.GetTimestamp(), out var ticket))
        {
            ids.Add(ticket.Id);
            Complete(scheduler, ticket);
        }

        return ids;
    }

    /// <summary>Reports a ticket as completed after 1 ms of service, as a resource does on release.</summary>
    /// <param name="scheduler">The scheduler.</param>
    /// <param name="ticket">The ticket.</param>
    protected static void Complete(ISubtaskScheduler scheduler, in SubtaskTicket ticket)
    {
        ArgumentNullException.ThrowIfNull(scheduler);
        scheduler.OnCompleted(new SubtaskCompletion(ticket.Workflow, ticket.Context, ticket.Cost, ticket.SubtaskType, TimeSpan.FromMilliseconds(1)));
    }

    private SubtaskTicket RandomTicket(Random random)
    {
        var workflow = $"w{random.Next(5)}";
        TimeSpan? deadline = random.Next(4) == 0 ? null : TimeSpan.FromMilliseconds(random.Next(1, 1000));
        var estimate = new ProgressDelta(random.Next(0, 3) * 0.01, random.Next(0, 3) * 0.5);
        return Ticket(Context(workflow, deadline, random.Next(0, 10) * 0.001, estimate), random.Next(1, 4));
    }
}
