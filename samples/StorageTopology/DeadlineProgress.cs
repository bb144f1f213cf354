// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Traces.Replay;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>Runs the deadline experiment on a worker thread with a progress bar over all its runs (a line per stage when piped).</summary>
internal static class DeadlineProgress
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>Runs the experiment; <paramref name="options"/>' <see cref="DeadlineExperimentOptions.Stop"/> stops it.</summary>
    public static DeadlineExperimentResult Run(IAnsiConsole console, TraceReplayPlan plan, DeadlineExperimentOptions options)
    {
        var runs = 1 + (options.LoadLevels.Count * (options.Configurations?.Count ?? DeadlineExperiment.DefaultNames.Count));
        var total = Math.Max(1, runs * plan.RequestCount);
        var offered = new LatestProgress();
        options.Progress = offered;
        var work = Task.Run(() => DeadlineExperiment.Run(plan, options), CancellationToken.None);
        if (!ConsoleFactory.IsInteractive(console))
        {
            // Piped: a line each time another tenth of the work is done, so a long run is never silent.
            var reported = 0L;
            while (!((IAsyncResult)work).AsyncWaitHandle.WaitOne(TimeSpan.FromSeconds(1)))
            {
                var tenth = 10 * offered.Value / total;
                if (tenth > reported)
                {
                    reported = tenth;
                    console.Profile.Out.Writer.WriteLine($"deadline: {10 * tenth}% of {runs} runs' requests offered");
                }
            }

            return work.GetAwaiter().GetResult();
        }

        console.Progress()
            .AutoClear(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new RemainingTimeColumn(), new SpinnerColumn())
            .Start(context =>
            {
                var task = context.AddTask(Markup.Escape($"{runs} runs (isolation, then each load level and configuration)"), maxValue: total);
                while (!((IAsyncResult)work).AsyncWaitHandle.WaitOne(PollInterval))
                {
                    task.Value = Math.Min(offered.Value, total * 0.999);
                }

                task.Value = total;
            });
        return work.GetAwaiter().GetResult();
    }
}
