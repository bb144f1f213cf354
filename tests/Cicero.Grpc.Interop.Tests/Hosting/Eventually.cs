// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;

namespace Cicero.Grpc.Interop.Tests.Hosting;

/// <summary>Bounded polling, for states that change on another loop's timer (rate adaptation) and raise no event.</summary>
public static class Eventually
{
    /// <summary>Runs <paramref name="step"/> until <paramref name="condition"/> holds for <paramref name="stableFor"/> steps in a row.</summary>
    /// <param name="step">One unit of driving work, e.g. one request; its own pace sets the polling pace.</param>
    /// <param name="condition">The condition.</param>
    /// <param name="limit">The most time to spend.</param>
    /// <param name="maxSteps">The most steps to run.</param>
    /// <param name="stableFor">How many consecutive steps the condition must hold.</param>
    /// <returns>Whether the condition held stably in time.</returns>
    public static async Task<bool> HoldsAsync(Func<Task> step, Func<bool> condition, TimeSpan limit, int maxSteps, int stableFor = 1)
    {
        ArgumentNullException.ThrowIfNull(step);
        ArgumentNullException.ThrowIfNull(condition);
        var clock = Stopwatch.StartNew();
        var stable = 0;
        for (var i = 0; i < maxSteps && clock.Elapsed < limit; i++)
        {
            await step();
            stable = condition() ? stable + 1 : 0;
            if (stable >= stableFor)
            {
                return true;
            }
        }

        return false;
    }
}
