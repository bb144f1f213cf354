// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Measures the peak live managed heap of a single-threaded run: the run goes on a worker thread while this thread
/// takes the heap size after a full collection every 50 ms (garbage not yet collected would otherwise count).
/// </summary>
internal static class PeakHeap
{
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(50);

    public static async Task<(T Result, long PeakBytes)> MeasureAsync<T>(Func<T> run)
    {
        var peak = LiveHeap();
        var task = Task.Factory.StartNew(run, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

        // A wait with a timeout, not a sleep: it returns as soon as the run ends.
        while (!((IAsyncResult)task).AsyncWaitHandle.WaitOne(Interval))
        {
            peak = Math.Max(peak, LiveHeap());
        }

        var result = await task;
        return (result, Math.Max(peak, LiveHeap()));
    }

    private static long LiveHeap() => GC.GetTotalMemory(forceFullCollection: true);
}
