// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Traces.Replay;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>Runs the deadline experiment on a worker thread with a progress bar over all its runs (a line per tenth when piped).</summary>
internal static class DeadlineProgress
{
    /// <summary>Runs the experiment; <paramref name="options"/>' <see cref="DeadlineExperimentOptions.Stop"/> stops it.</summary>
    public static DeadlineExperimentResult Run(IAnsiConsole console, TraceReplayPlan plan, DeadlineExperimentOptions options)
    {
        var runs = 1 + (options.LoadLevels.Count * (options.Configurations?.Count ?? DeadlineExperiment.DefaultNames.Count));
        var offered = new LatestProgress();
        options.Progress = offered;
        return ProgressDisplay.Follow(
            console,
            Task.Run(() => DeadlineExperiment.Run(plan, options), CancellationToken.None),
            offered,
            Math.Max(1, runs * plan.RequestCount),
            $"{runs} runs (isolation, then each load level and configuration)",
            [new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new RemainingTimeColumn(), new SpinnerColumn()],
            percent => $"deadline: {percent}% of {runs} runs' requests offered");
    }
}
