// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Measurement;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;
using static Cicero.Tests.Shared.ValueTaskAssert;

namespace Cicero.Tests.Resources;

public class ResourceSemaphoreTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void AcquireAsync_FreePermit_CompletesSynchronously()
    {
        var resource = Create(capacity: 2);

        var first = Completed(resource.AcquireAsync(Context("a")));
        Completed(resource.AcquireAsync(Context("a")));

        Assert.True(first.IsAcquired);
        Assert.Equal(2, resource.InUse);
    }

    [Fact]
    public void AcquireAsync_Full_QueuesInFifoOrder_AndReleaseGrantsNext()
    {
        var resource = Create(capacity: 1);
        var held = Completed(resource.AcquireAsync(Context("a")));
        var waiters = Enumerable.Range(0, 3).Select(i => resource.AcquireAsync(Context($"w{i}")).AsTask()).ToArray();

        Assert.All(waiters, w => Assert.False(w.IsCompleted));
        Assert.Equal(3, resource.QueueLength);

        held.Dispose();
        Assert.True(waiters[0].IsCompletedSuccessfully);
        Assert.False(waiters[1].IsCompleted);

        Completed(waiters[0]).Dispose();
        Assert.True(waiters[1].IsCompletedSuccessfully);
        Assert.False(waiters[2].IsCompleted);
        Assert.Equal(1, resource.QueueLength);
    }

    [Fact]
    public void AcquireAsync_QueueFull_ReturnsRejectedLeaseWithReason()
    {
        var resource = Create(capacity: 1, maxQueue: 1);
        _ = Completed(resource.AcquireAsync(Context("a")));
        var queued = resource.AcquireAsync(Context("a")).AsTask();

        var rejected = Completed(resource.AcquireAsync(Context("a")));

        Assert.False(queued.IsCompleted);
        Assert.False(rejected.IsAcquired);
        Assert.Equal(DropReason.QueueFull, rejected.RejectionReason);
    }

    [Fact]
    public async Task AcquireAsync_CancelledWhileQueued_ThrowsAndLeavesQueue()
    {
        var resource = Create(capacity: 1);
        var held = Completed(resource.AcquireAsync(Context("a")));
        using var cts = new CancellationTokenSource();
        var cancelled = resource.AcquireAsync(Context("b"), cancellationToken: cts.Token).AsTask();
        var next = resource.AcquireAsync(Context("c")).AsTask();

        cts.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await cancelled);
        Assert.Equal(1, resource.QueueLength);
        held.Dispose();
        Assert.True(Completed(next).IsAcquired);
    }

    [Fact]
    public async Task AcquireAsync_AlreadyCancelledToken_ThrowsWithoutTakingPermit()
    {
        var resource = Create(capacity: 1);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(async () => await resource.AcquireAsync(Context("a"), cancellationToken: new CancellationToken(true)));
        Assert.Equal(0, resource.InUse);
    }

    [Fact]
    public void Dispose_Twice_ReleasesOnce()
    {
        var resource = Create(capacity: 1);
        var lease = Completed(resource.AcquireAsync(Context("a")));
        var copy = lease;
        var waiter = resource.AcquireAsync(Context("b")).AsTask();

        lease.Dispose();
        copy.Dispose();
        lease.Dispose();

        Assert.True(waiter.IsCompletedSuccessfully);
        Assert.Equal(1, resource.InUse);
    }

    [Fact]
    public void Release_MeasuresServiceTime_AndAddsItToRequestProgress()
    {
        var resource = Create(capacity: 2);
        var context = Context("a");
        var slot = _registry.Resolve(context);

        var lease = Completed(resource.AcquireAsync(context));
        _clock.Advance(TimeSpan.FromMilliseconds(30));
        lease.Dispose();

        Assert.Equal(TimeSpan.FromMilliseconds(30), resource.GetServiceTime(slot));
        Assert.Equal(0.030, context.Progress.Current.ServiceTime, 12);
        Assert.Equal(0.015, context.Progress.Current.Load, 12);
    }

    [Fact]
    public void CloseInterval_LoadIsAveragePermitsHeld_IncludingStillHeldPermits()
    {
        var resource = Create(capacity: 4, weight: 1.0);
        var a = _registry.Resolve("a");
        var b = _registry.Resolve("b");

        var longHold = Completed(resource.AcquireAsync(Context("a")));
        var shortHold = Completed(resource.AcquireAsync(Context("b")));
        _clock.Advance(TimeSpan.FromMilliseconds(25));
        shortHold.Dispose();
        _clock.Advance(TimeSpan.FromMilliseconds(75));
        resource.CloseInterval(_clock.GetTimestamp(), 0.1);

        Assert.Equal(1.0, resource.GetLoad(a), 9);
        Assert.Equal(0.25, resource.GetLoad(b), 9);
        Assert.Equal(1.25, resource.TotalLoad, 9);
        Assert.Equal(0.25, resource.GetUtilization(a), 9);

        // The next interval sees only the rest of the long hold.
        _clock.Advance(TimeSpan.FromMilliseconds(50));
        longHold.Dispose();
        _clock.Advance(TimeSpan.FromMilliseconds(50));
        resource.CloseInterval(_clock.GetTimestamp(), 0.1);
        Assert.Equal(0.5, resource.GetLoad(a), 9);
        Assert.Equal(0, resource.GetLoad(b), 9);
    }

    [Fact]
    public void CloseInterval_LargePool_ManyHeldReleasedOutOfOrder_AccountsExactlyTheStillHeld()
    {
        // Slots are made as permits are held and the interval walks only the held ones: holds past the first slots,
        // released out of order, and stale copies of released leases must leave the accounting exact.
        var resource = Create(capacity: 4096, weight: 1.0);
        var a = _registry.Resolve("a");
        var b = _registry.Resolve("b");
        var leases = Enumerable.Range(0, 40).Select(i => Completed(resource.AcquireAsync(Context(i % 2 == 0 ? "a" : "b")))).ToArray();
        _clock.Advance(TimeSpan.FromMilliseconds(50));
        var released = Enumerable.Range(0, 40).Where(i => i % 3 == 0).ToArray();
        foreach (var i in released.Reverse())
        {
            leases[i].Dispose();
        }

        _clock.Advance(TimeSpan.FromMilliseconds(50));
        resource.CloseInterval(_clock.GetTimestamp(), 0.1);

        // A held permit counts 1 over the interval, one released halfway 0.5.
        static double Expected(int parity, int[] released) =>
            Enumerable.Range(0, 40).Where(i => i % 2 == parity).Sum(i => released.Contains(i) ? 0.5 : 1.0);
        Assert.Equal(Expected(0, released), resource.GetLoad(a), 9);
        Assert.Equal(Expected(1, released), resource.GetLoad(b), 9);
        Assert.Equal(40 - released.Length, resource.InUse);

        foreach (var i in released)
        {
            leases[i].Dispose();
        }

        var fresh = Completed(resource.AcquireAsync(Context("a")));
        Assert.Equal(41 - released.Length, resource.InUse);
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        foreach (var i in Enumerable.Range(0, 40).Except(released))
        {
            leases[i].Dispose();
            leases[i].Dispose();
        }

        resource.CloseInterval(_clock.GetTimestamp(), 0.1);
        Assert.Equal(1, resource.InUse);
        Assert.Equal(Enumerable.Range(0, 40).Except(released).Count(i => i % 2 == 0) + 1, resource.GetLoad(a), 9);
        fresh.Dispose();
        Assert.Equal(0, resource.InUse);
    }

    [Fact]
    public void CloseInterval_WaitingSubtasks_CountAsDemand_SoASaturatedResourceShowsNegativeSpare()
    {
        var resource = Create(capacity: 1, weight: 1.0);
        var holder = _registry.Resolve("holder");
        var queued = _registry.Resolve("queued");
        var lease = Completed(resource.AcquireAsync(Context("holder")));
        _ = Enumerable.Range(0, 3).Select(_ => resource.AcquireAsync(Context("queued")).AsTask()).ToArray();
        _clock.Advance(TimeSpan.FromMilliseconds(100));

        resource.CloseInterval(_clock.GetTimestamp(), 0.1);

        Assert.Equal(1, resource.GetLoad(holder), 9);
        Assert.Equal(3, resource.GetLoad(queued), 9);
        Assert.Equal(4, resource.TotalLoad, 9);
        Assert.Equal(0, resource.GetUtilization(queued), 9);
        Assert.Equal(-3, new Cicero.RateAdaptation.ResourceRateInputs("disk", 1, resource.TotalLoad).SpareFraction, 9);
        lease.Dispose();
    }

    [Fact]
    public void GetServiceTime_PerSubtaskType_IsTrackedSeparately()
    {
        var resource = Create(capacity: 1);
        var slot = _registry.Resolve("a");

        var read = Completed(resource.AcquireAsync(Context("a"), subtaskType: 1));
        _clock.Advance(TimeSpan.FromMilliseconds(10));
        read.Dispose();
        var write = Completed(resource.AcquireAsync(Context("a"), subtaskType: 2));
        _clock.Advance(TimeSpan.FromMilliseconds(40));
        write.Dispose();

        Assert.Equal(TimeSpan.FromMilliseconds(10), resource.GetServiceTime(slot, 1));
        Assert.Equal(TimeSpan.FromMilliseconds(40), resource.GetServiceTime(slot, 2));
        Assert.Null(resource.GetServiceTime(slot, 3));
    }

    [Fact]
    public void Configure_LargerCapacity_GrantsWaiters()
    {
        var resource = Create(capacity: 1);
        _ = Completed(resource.AcquireAsync(Context("a")));
        var waiters = Enumerable.Range(0, 3).Select(_ => resource.AcquireAsync(Context("a")).AsTask()).ToArray();

        resource.Configure(capacity: 3, maxQueueLength: 10);

        Assert.True(waiters[0].IsCompletedSuccessfully);
        Assert.True(waiters[1].IsCompletedSuccessfully);
        Assert.False(waiters[2].IsCompleted);
        Assert.Equal(3, resource.InUse);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void DropExpiredWaiters_WaiterPastItsDeadline_RefusedWhenItsTurnComes_NextOneServed(bool dropExpired)
    {
        var options = Options(1, 10);
        options.DropExpiredWaiters = dropExpired;
        var resource = new ResourceSemaphore(options, _registry, new FifoScheduler(), _clock);
        var held = Completed(resource.AcquireAsync(Context("a")));
        var doomed = resource.AcquireAsync(RequestContext.Start("b", _clock, TimeSpan.FromMilliseconds(10)));
        var patient = resource.AcquireAsync(RequestContext.Start("c", _clock, TimeSpan.FromSeconds(10)));

        _clock.Advance(TimeSpan.FromMilliseconds(20));
        held.Dispose();

        var refused = Completed(doomed);
        if (dropExpired)
        {
            Assert.False(refused.IsAcquired);
            Assert.Equal(DropReason.DeadlineInfeasible, refused.RejectionReason);
            Assert.True(Completed(patient).IsAcquired, "the permit goes to the next waiter");
        }
        else
        {
            Assert.True(refused.IsAcquired);
            Assert.False(patient.IsCompleted);
        }

        Assert.Equal(1, resource.InUse);
        Assert.Equal(dropExpired ? 0 : 1, resource.QueueLength);
    }

    [Fact]
    public void DropExpiredWaiters_WaiterThatCannotFinishByItsDeadline_RefusedBeforeItPasses()
    {
        var options = Options(1, 10);
        options.DropExpiredWaiters = true;
        var resource = new ResourceSemaphore(options, _registry, new FifoScheduler(), _clock);
        var warmUp = Completed(resource.AcquireAsync(Context("a")));
        _clock.Advance(TimeSpan.FromMilliseconds(20));
        warmUp.Dispose();
        var held = Completed(resource.AcquireAsync(Context("a")));

        // Workflow a's sub-tasks take 20 ms here; 15 ms before its deadline there is no time left for one.
        var tooLate = resource.AcquireAsync(RequestContext.Start("a", _clock, TimeSpan.FromMilliseconds(35)));
        var inTime = resource.AcquireAsync(RequestContext.Start("a", _clock, TimeSpan.FromMilliseconds(60)));
        _clock.Advance(TimeSpan.FromMilliseconds(20));
        held.Dispose();

        Assert.Equal(DropReason.DeadlineInfeasible, Completed(tooLate).RejectionReason);
        Assert.True(Completed(inTime).IsAcquired);
    }

    [Fact]
    public void DropExpiredWaiters_SmallRequestCarryingItsOwnEstimate_JudgedByItsSize_NotTheWorkflowsMean()
    {
        var options = Options(1, 10);
        options.DropExpiredWaiters = true;
        var resource = new ResourceSemaphore(options, _registry, new FifoScheduler(), _clock);
        var warmUp = Completed(resource.AcquireAsync(Context("a")));
        _clock.Advance(TimeSpan.FromMilliseconds(20));
        warmUp.Dispose();
        var held = Completed(resource.AcquireAsync(Context("a")));
        RequestContext Sized(double serviceSeconds) =>
            RequestContext.Start("a", _clock, TimeSpan.FromMilliseconds(35)).WithEstimatedTotal(new ProgressDelta(serviceSeconds, 0));

        // Workflow a's mean here is 20 ms and 15 ms are left at the turn: a 5 ms request fits, a 30 ms one does not.
        var small = resource.AcquireAsync(Sized(0.005));
        var large = resource.AcquireAsync(Sized(0.030));
        _clock.Advance(TimeSpan.FromMilliseconds(20));
        held.Dispose();

        var smallLease = Completed(small);
        Assert.True(smallLease.IsAcquired);
        smallLease.Dispose();
        Assert.Equal(DropReason.DeadlineInfeasible, Completed(large).RejectionReason);
    }

    [Fact]
    public void Scheduler_DecidesOrder_AndSeesCompletions()
    {
        var scheduler = new LastInFirstOutScheduler();
        var resource = new ResourceSemaphore(Options(1, 10), _registry, scheduler, _clock);
        var held = Completed(resource.AcquireAsync(Context("a")));
        var first = resource.AcquireAsync(Context("b")).AsTask();
        var second = resource.AcquireAsync(Context("c")).AsTask();

        _clock.Advance(TimeSpan.FromMilliseconds(5));
        held.Dispose();

        Assert.True(second.IsCompletedSuccessfully);
        Assert.False(first.IsCompleted);
        Assert.Equal(TimeSpan.FromMilliseconds(5), Assert.Single(scheduler.Completions).ServiceTime);
    }

    [Fact]
    public async Task AcquireRelease_ManyThreads_NeverExceedCapacity()
    {
        var resource = new ResourceSemaphore(Options(3, 10_000), _registry, timeProvider: TimeProvider.System);
        var inside = 0;
        var maxInside = 0;

        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
        {
            for (var i = 0; i < 500; i++)
            {
                using var lease = await resource.AcquireAsync(Context("a"));
                var now = Interlocked.Increment(ref inside);
                InterlockedMax(ref maxInside, now);
                await Task.Yield();
                Interlocked.Decrement(ref inside);
            }
        })));

        Assert.InRange(maxInside, 1, 3);
        Assert.Equal(0, resource.InUse);
        Assert.Equal(0, resource.QueueLength);
    }

    [Fact]
    public void Options_Invalid_Throw()
    {
        Assert.Throws<ArgumentException>(() => new ResourceSemaphore(new ResourceSemaphoreOptions { Name = " " }, _registry));
        Assert.Throws<ArgumentOutOfRangeException>(() => new ResourceSemaphore(new ResourceSemaphoreOptions { Name = "r", Capacity = 0 }, _registry));
        var resource = Create(1);
        var error = Record.Exception(() => { _ = resource.AcquireAsync(Context("a"), cost: double.NaN).AsTask(); });
        Assert.IsType<ArgumentOutOfRangeException>(error);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        int current;
        while ((current = Volatile.Read(ref target)) < value && Interlocked.CompareExchange(ref target, value, current) != current)
        {
        }
    }

    private ResourceSemaphore Create(int capacity, int maxQueue = 100, double weight = 0.5) =>
        new(Options(capacity, maxQueue), _registry, null, _clock, new LocalModelOptions { EwmaWeight = weight });

    private static ResourceSemaphoreOptions Options(int capacity, int maxQueue) =>
        new() { Name = "disk", Capacity = capacity, MaxQueueLength = maxQueue, RunContinuationsAsynchronously = false };

    private RequestContext Context(string workflow) => RequestContext.Start(workflow, _clock);

    private sealed class LastInFirstOutScheduler : ISubtaskScheduler
    {
        private readonly List<SubtaskTicket> _stack = [];

        public List<SubtaskCompletion> Completions { get; } = [];

        public int Count => _stack.Count;

        public void Enqueue(in SubtaskTicket ticket) => _stack.Add(ticket);

        public bool TryDequeue(long now, out SubtaskTicket ticket)
        {
            if (_stack.Count == 0)
            {
                ticket = default;
                return false;
            }

            ticket = _stack[^1];
            _stack.RemoveAt(_stack.Count - 1);
            return true;
        }

        public bool TryRemove(in SubtaskTicket ticket)
        {
            var id = ticket.Id;
            return _stack.RemoveAll(t => t.Id == id) > 0;
        }

        public void OnCompleted(in SubtaskCompletion completion) => Completions.Add(completion);
    }
}
