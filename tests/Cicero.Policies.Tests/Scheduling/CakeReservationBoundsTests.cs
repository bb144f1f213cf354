// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Scheduling;

public class CakeReservationBoundsTests
{
    [Fact]
    public async Task ReservationsFromOptionsCoveringCapacity_StillLeaveOneSharedPermit()
    {
        var clock = new VirtualTimeProvider();
        var registry = new WorkflowRegistry();
        var options = new CakeShareOptions();
        options.Reservations["a"] = 2;
        var resource = new ResourceSemaphore(
            new ResourceSemaphoreOptions { Name = "disk", Capacity = 2, RunContinuationsAsynchronously = false },
            registry,
            new CakeShareScheduler(options, registry),
            clock);

        var lease = await resource.AcquireAsync(RequestContext.Start("b", clock));

        Assert.True(lease.IsAcquired);
    }
}
