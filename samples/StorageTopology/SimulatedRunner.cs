// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>
/// Runs every configuration of a scenario in simulation, one after the other, with a progress bar per configuration.
/// </summary>
/// <remarks>
/// A simulation is single-threaded and has no progress callback; it runs on a worker thread while this thread reads its
/// virtual clock (<see cref="TopologySimulation.Elapsed"/>, a volatile read) a few times a second to move the bar.
/// Reading the clock does not touch the simulation's state, so the results stay bit-for-bit those of an unobserved run.
/// </remarks>
internal sealed class SimulatedRunner(IAnsiConsole console, Cicero.Policies.Registration.PolicyCatalog? catalog = null)
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(100);

    /// <summary>Runs the scenario; returns one result per configuration and the wall time of each run.</summary>
    /// <exception cref="ConservationException">A run lost a request.</exception>
    /// <param name="scenario">The scenario.</param>
    /// <param name="stop">Stops the run in progress (its result covers what ran) and skips the configurations after it.</param>
    public (List<TopologyRunResult> Results, List<TimeSpan> WallTimes) Run(ScenarioSpec scenario, CancellationToken stop)
    {
        var configurations = scenario.Configurations ?? [];
        var results = new List<TopologyRunResult>();
        var wallTimes = new List<TimeSpan>();
        console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new SpinnerColumn())
            .Start(context =>
            {
                var tasks = new List<ProgressTask>();
                foreach (var configuration in configurations)
                {
                    tasks.Add(context.AddTask(Markup.Escape(configuration.Name ?? "configuration"), autoStart: false, maxValue: scenario.DurationSeconds));
                }

                for (var i = 0; i < configurations.Count && !stop.IsCancellationRequested; i++)
                {
                    var started = TimeProvider.System.GetTimestamp();
                    var result = RunOne(scenario, configurations[i], tasks[i], stop);
                    var wall = TimeProvider.System.GetElapsedTime(started);
                    results.Add(result);
                    wallTimes.Add(wall);
                    tasks[i].Description = Markup.Escape(configurations[i].Name ?? "configuration") + string.Create(
                        CultureInfo.InvariantCulture,
                        $" [grey]{result.Events / 1e6:F2} M events in {wall.TotalSeconds:F1} s, {result.EndSeconds / wall.TotalSeconds:F0}x real time[/]");
                }
            });

        return (results, wallTimes);
    }

    private TopologyRunResult RunOne(ScenarioSpec scenario, ConfigurationSpec configuration, ProgressTask task, CancellationToken stop)
    {
        var simulation = new TopologySimulation(scenario, configuration, catalog);
        using var registration = stop.Register(simulation.Stop);
        task.StartTask();
        var run = Task.Run(simulation.Run);

        // After the workloads stop, the run only waits for the last outcomes; the bar stays just short of full until then.
        // Waiting on the handle rather than the task leaves a failure to GetResult, which rethrows it unwrapped.
        while (!((IAsyncResult)run).AsyncWaitHandle.WaitOne(PollInterval))
        {
            task.Value = Math.Min(simulation.Elapsed.TotalSeconds, task.MaxValue * 0.999);
        }

        var result = run.GetAwaiter().GetResult();
        task.Value = task.MaxValue;
        task.StopTask();
        return result;
    }
}
