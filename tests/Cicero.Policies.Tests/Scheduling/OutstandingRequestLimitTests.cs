// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Scheduling;

public class OutstandingRequestLimitTests
{
    [Fact]
    public void Update_AdditiveIncreaseBelowLow_MultiplicativeDecreaseAboveHigh_HoldInBetween()
    {
        var limit = new OutstandingRequestLimit(8);

        Assert.Equal(9, limit.Update(TimeSpan.FromMilliseconds(5)));
        Assert.Equal(9, limit.Update(TimeSpan.FromMilliseconds(7)));
        Assert.Equal(6, limit.Update(TimeSpan.FromMilliseconds(9)));
        Assert.Equal(4, limit.Update(TimeSpan.FromMilliseconds(20)));
        Assert.Equal(4, limit.Update(TimeSpan.FromMilliseconds(20)));
    }

    [Fact]
    public void UpdateAndApply_SetsResourceCapacity_WithinBounds()
    {
        var options = new OutstandingRequestLimitOptions { MinLimit = 1, MaxLimit = 3 };
        var limit = new OutstandingRequestLimit(2, options);
        var resource = new ResourceSemaphore(new ResourceSemaphoreOptions { Name = "hbase", Capacity = 2 }, new WorkflowRegistry());

        for (var i = 0; i < 5; i++)
        {
            limit.UpdateAndApply(resource, TimeSpan.FromMilliseconds(1));
        }

        Assert.Equal(3, resource.Capacity);
    }

    [Fact]
    public void Options_Invalid_Throw()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new OutstandingRequestLimit(4, new OutstandingRequestLimitOptions { DecreaseFactor = 1 }));
        Assert.Throws<ArgumentOutOfRangeException>(() => new OutstandingRequestLimit(4, new OutstandingRequestLimitOptions { LowLatency = TimeSpan.FromMilliseconds(9) }));
    }
}
