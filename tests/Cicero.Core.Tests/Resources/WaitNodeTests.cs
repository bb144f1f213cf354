// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Resources;

public class WaitNodeTests
{
    [Fact]
    public async Task QueuedAcquire_AwaitedTwice_ThrowsAndDoesNotCorruptLaterWaiters()
    {
        var clock = new VirtualTimeProvider();
        var resource = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "r", Capacity = 1, RunContinuationsAsynchronously = false }, new WorkflowRegistry(), null, clock);
        var held = await resource.AcquireAsync(RequestContext.Start("a", clock));
        var queued = resource.AcquireAsync(RequestContext.Start("a", clock));
        held.Dispose();

        var lease = await queued;
        await Assert.ThrowsAsync<InvalidOperationException>(async () => await queued);

        // Two new waiters must get two distinct nodes.
        var first = resource.AcquireAsync(RequestContext.Start("b", clock)).AsTask();
        var second = resource.AcquireAsync(RequestContext.Start("c", clock)).AsTask();
        lease.Dispose();
        Assert.True(first.IsCompletedSuccessfully);
        Assert.False(second.IsCompleted);
        (await first).Dispose();
        Assert.True((await second).IsAcquired);
    }
}
