// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Live;
using Cicero.Emulator.Reports;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Traces.Replay;
using Cicero.Policies.Registration;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>Runs a checked replay: every configuration over every seed, with progress, then the verdict and the report.</summary>
internal sealed class ReplayExecution(
    IAnsiConsole console, IAnsiConsole errors, ReplaySettings settings, TraceReplayPlan plan, List<ConfigurationSpec> configurations, PolicyCatalog catalog)
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(100);

    private bool Live => settings.Runner == StorageTopologyCommand.Live;

    /// <summary>Runs; returns the exit code.</summary>
    public int Run()
    {
        var firstSeed = settings.Seed ?? plan.Scenario.Seed;
        console.MarkupLine(Markup.Escape(string.Create(
            CultureInfo.InvariantCulture,
            $"Replaying {plan.RequestCount:N0} requests of {plan.Workflows.Count} workflows, {(settings.Clients is { } n ? $"closed loop with {n} clients" : $"open loop at {settings.SpeedUp ?? 1:G4}x")}, "
            + $"against {string.Join(", ", configurations.Select(static c => c.Name))}, {settings.Seeds} {(Live ? "live run(s)" : $"seed(s) from {firstSeed}")} each, capacity x{settings.Capacity:G4}, {settings.Runner}.")));
        var started = TimeProvider.System.GetTimestamp();
        var runs = configurations.Select(static c => (Configuration: c.Name!, Runs: new List<TopologyRunResult>())).ToList();
        using var stop = new StopSignal();
        using var host = Live ? HostMonitor.Start() : null;
        try
        {
            RunAll(runs, firstSeed, stop.Token);
        }
        catch (ScenarioValidationException ex)
        {
            return CommandErrors.Report(errors, "Cannot replay the trace.", ex.Message, ExitCodes.InvalidScenario);
        }
        catch (ConservationException ex)
        {
            return CommandErrors.Report(errors, "A run failed its conservation check.", ex.Message, ExitCodes.RunFailed);
        }

        var firstRuns = runs.Where(static r => r.Runs.Count > 0).Select(static r => r.Runs[0]).ToList();
        var partial = PartialRun.Describe(stop, configurations.Select(static c => c.Name!), firstRuns);
        if (firstRuns.Count == 0)
        {
            return CommandErrors.Report(errors, "Stopped before any run started.", partial ?? "No report was written.", ExitCodes.Interrupted);
        }

        var verdict = NoiseVerdict.Of([.. runs.Where(static r => r.Runs.Count > 0).Select(static r => (r.Configuration, (IReadOnlyList<TopologyRunResult>)r.Runs))], host?.Finish().HostLimited);
        var sentences = verdict.Sentences();
        if (host?.Summary is { } measured)
        {
            sentences = [.. sentences, "Host during the live runs: " + measured];
        }

        ReportFiles files;
        try
        {
            if (OutputPaths.CheckFolder(settings.Output) is { } unwritable)
            {
                return CommandErrors.Report(errors, "Cannot write the report.", unwritable, ExitCodes.ReportFailed);
            }

            files = ReportWriter.Write(firstRuns, settings.Output, new ReportOptions { Scenario = plan.Scenario, Runner = settings.Runner, Partial = partial, RepeatedRunsVerdict = sentences, HostBottleneck = verdict.HostLimited }, PartialRun.ForReport(stop));
            partial = PartialRun.AfterReport(stop, partial, files);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return CommandErrors.Report(errors, "Cannot write the report.", ex.Message, ExitCodes.ReportFailed);
        }

        console.Write(ResultTable.Build(firstRuns));
        foreach (var sentence in sentences)
        {
            console.Profile.Out.Writer.WriteLine(sentence);
        }

        console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"Ran in {TimeProvider.System.GetElapsedTime(started).TotalSeconds:0.0} s."));
        console.WriteLine("Report: " + files.Html);
        var exit = PartialRun.Finish(errors, partial);

        // The last line on standard output, exactly, for scripts: winner: NAME or winner: none (tie within noise).
        console.Profile.Out.Writer.WriteLine(verdict.LastLine);
        console.Profile.Out.Writer.Flush();
        return exit;
    }

    private void RunAll(List<(string Configuration, List<TopologyRunResult> Runs)> runs, int firstSeed, CancellationToken stop)
    {
        if (!ConsoleFactory.IsInteractive(console))
        {
            // Piped: a line per run, as it ends.
            ForEachRun(runs, firstSeed, (label, run) => console.Profile.Out.Writer.WriteLine(label + ": " + Describe(run(null))), stop);
            return;
        }

        console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new RemainingTimeColumn(), new SpinnerColumn())
            .Start(context => ForEachRun(
                runs,
                firstSeed,
                (label, run) =>
            {
                var task = context.AddTask(Markup.Escape(label), maxValue: Math.Max(1, plan.RequestCount));
                var result = run(task);
                task.Value = task.MaxValue;
                task.Description = Markup.Escape(label + ": " + Describe(result));
                task.StopTask();
            },
                stop));
    }

    private void ForEachRun(List<(string Configuration, List<TopologyRunResult> Runs)> runs, int firstSeed, Action<string, Func<ProgressTask?, TopologyRunResult>> each, CancellationToken stop)
    {
        for (var s = 0; s < settings.Seeds && !stop.IsCancellationRequested; s++)
        {
            for (var c = 0; c < configurations.Count && !stop.IsCancellationRequested; c++)
            {
                var configuration = configurations[c];
                var seed = unchecked(firstSeed + s);
                var label = Live ? $"{configuration.Name} run {s + 1}" : $"{configuration.Name} seed {seed}";
                var list = runs[c].Runs;
                each(label, task =>
                {
                    var result = RunOne(configuration, seed, label, task, stop);
                    list.Add(result);
                    return result;
                });
            }
        }
    }

    // task: the run's bar; null when piped, where a line per tenth of the requests offered stands in for it.
    private TopologyRunResult RunOne(ConfigurationSpec configuration, int seed, string label, ProgressTask? task, CancellationToken stop)
    {
        if (Live)
        {
            var options = new LiveReplayOptions { ClosedLoopClients = settings.Clients, SpeedUp = settings.SpeedUp ?? 1 };
            return LiveTopologyRunner.ReplayAsync(plan, configuration, options, catalog, stop).GetAwaiter().GetResult();
        }

        var offered = new LatestProgress();
        var replay = new SimulatedReplayOptions { ClosedLoopClients = settings.Clients ?? 0, SpeedUp = settings.SpeedUp ?? 1, Seed = seed, Progress = offered };
        var run = Task.Run(() => SimulatedReplay.Run(plan, configuration, replay, catalog, stop), CancellationToken.None);
        if (task is null)
        {
            return ProgressDisplay.FollowPiped(console, run, offered, Math.Max(1, plan.RequestCount), percent => $"{label}: {percent}% of the requests offered");
        }

        // Waiting on the handle rather than the task leaves a failure to GetResult, which rethrows it unwrapped.
        while (!((IAsyncResult)run).AsyncWaitHandle.WaitOne(PollInterval))
        {
            task.Value = Math.Min(offered.Value, task.MaxValue * 0.999);
        }

        return run.GetAwaiter().GetResult();
    }

    private static string Describe(TopologyRunResult result) =>
        string.Create(CultureInfo.InvariantCulture, $"{result.Requests:N0} requests in {result.EndSeconds:0.0} s{(result.Interrupted ? " (stopped)" : string.Empty)}");
}
