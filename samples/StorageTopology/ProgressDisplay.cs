// SPDX-License-Identifier: Apache-2.0

using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>
/// Follows a job running on a worker thread by the latest count it reported: a Spectre.Console bar on a terminal, and
/// when piped a line each time another tenth of the work is done, so a long run is never silent.
/// </summary>
internal static class ProgressDisplay
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan PipedInterval = TimeSpan.FromSeconds(1);

    /// <summary>Waits for <paramref name="work"/>, printing a line each time another tenth of it is done (the piped form of a bar).</summary>
    /// <returns>The job's result (a failure is rethrown unwrapped).</returns>
    public static T FollowPiped<T>(IAnsiConsole console, Task<T> work, LatestProgress done, long total, Func<long, string> pipedLine)
    {
        var reported = 0L;
        while (!((IAsyncResult)work).AsyncWaitHandle.WaitOne(PipedInterval))
        {
            var tenth = 10 * done.Value / total;
            if (tenth > reported && tenth < 10)
            {
                reported = tenth;
                console.Profile.Out.Writer.WriteLine(pipedLine(10 * tenth));
            }
        }

        return work.GetAwaiter().GetResult();
    }

    /// <summary>Waits for <paramref name="work"/> and returns its result (a failure is rethrown unwrapped).</summary>
    /// <param name="console">Where the bar or the lines go.</param>
    /// <param name="work">The job.</param>
    /// <param name="done">The job's latest count, out of <paramref name="total"/>.</param>
    /// <param name="total">The count when the job is done (positive).</param>
    /// <param name="description">The bar's label.</param>
    /// <param name="columns">The bar's columns.</param>
    /// <param name="pipedLine">The line printed when piped, given the whole percentage done (10, 20, ... 90).</param>
    public static T Follow<T>(IAnsiConsole console, Task<T> work, LatestProgress done, long total, string description, ProgressColumn[] columns, Func<long, string> pipedLine)
    {
        if (!ConsoleFactory.IsInteractive(console))
        {
            return FollowPiped(console, work, done, total, pipedLine);
        }

        // Waiting on the handle rather than the task leaves a failure to GetResult, which rethrows it unwrapped.
        var finished = ((IAsyncResult)work).AsyncWaitHandle;
        console.Progress()
            .AutoClear(false)
            .Columns(columns)
            .Start(context =>
            {
                var task = context.AddTask(Markup.Escape(description), maxValue: total);
                while (!finished.WaitOne(PollInterval))
                {
                    task.Value = Math.Min(done.Value, total * 0.999);
                }

                task.Value = total;
            });
        return work.GetAwaiter().GetResult();
    }
}
