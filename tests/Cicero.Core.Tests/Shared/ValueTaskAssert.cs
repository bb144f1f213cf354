// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Tests.Shared;

/// <summary>Asserts on value tasks that must already have completed, without blocking.</summary>
internal static class ValueTaskAssert
{
    public static T Completed<T>(ValueTask<T> task)
    {
        Assert.True(task.IsCompletedSuccessfully, "The operation should have completed synchronously.");
        return task.Result;
    }

    public static T Completed<T>(Task<T> task)
    {
        Assert.True(task.IsCompletedSuccessfully, "The operation should have completed.");
        return task.GetAwaiter().GetResult();
    }
}
