// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text.Json;
using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Spectre.Console;

namespace Cicero.StorageTopology;

/// <summary>Runs every configuration of a scenario live (real gRPC servers), with a progress bar on the wall clock.</summary>
internal sealed class LiveRunner(IAnsiConsole console, LiveRunnerOptions options, Cicero.Policies.Registration.PolicyCatalog? catalog = null)
{
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(200);

    /// <summary>Reads an addresses file: a JSON object from service name to its instances' addresses.</summary>
    /// <exception cref="IOException">The file cannot be read.</exception>
    /// <exception cref="JsonException">The file is not such an object.</exception>
    public static LiveRunnerOptions LoadOptions(string? addressesFile, string? hosted, string listen)
    {
        var options = new LiveRunnerOptions { ListenHost = listen };
        if (addressesFile is not null)
        {
            using var stream = File.OpenRead(addressesFile);
            using var document = JsonDocument.Parse(stream);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                throw new JsonException($"{addressesFile}: expected an object from service name to a list of addresses.");
            }

            foreach (var service in document.RootElement.EnumerateObject())
            {
                if (service.Value.ValueKind != JsonValueKind.Array || service.Value.EnumerateArray().Any(a => a.ValueKind != JsonValueKind.String))
                {
                    throw new JsonException($"{addressesFile}: '{service.Name}' must be a list of address strings.");
                }

                options.Addresses[service.Name] = [.. service.Value.EnumerateArray().Select(a => a.GetString()!)];
            }
        }

        if (hosted is not null)
        {
            options.HostedInstances = hosted.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).ToHashSet(StringComparer.Ordinal);
        }

        return options;
    }

    /// <summary>Runs the scenario's configurations one after another.</summary>
    /// <exception cref="ConservationException">A run lost a request.</exception>
    /// <param name="scenario">The scenario.</param>
    /// <param name="stop">Stops the run in progress (its result covers what ran) and skips the configurations after it.</param>
    public List<TopologyRunResult> Run(ScenarioSpec scenario, CancellationToken stop)
    {
        var configurations = scenario.Configurations ?? [];
        var results = new List<TopologyRunResult>();
        console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new SpinnerColumn())
            .Start(context =>
            {
                var tasks = configurations.Select(c => context.AddTask(Markup.Escape(c.Name ?? "configuration"), autoStart: false, maxValue: scenario.DurationSeconds)).ToList();
                for (var i = 0; i < configurations.Count && !stop.IsCancellationRequested; i++)
                {
                    var task = tasks[i];
                    task.StartTask();
                    var started = TimeProvider.System.GetTimestamp();
                    var configuration = configurations[i];
                    var run = Task.Run(() => new LiveTopologyRunner(scenario, configuration, catalog, options).RunAsync(stop), CancellationToken.None);
                    while (!((IAsyncResult)run).AsyncWaitHandle.WaitOne(PollInterval))
                    {
                        task.Value = Math.Min(TimeProvider.System.GetElapsedTime(started).TotalSeconds, task.MaxValue * 0.999);
                    }

                    var result = run.GetAwaiter().GetResult();
                    results.Add(result);
                    task.Value = task.MaxValue;
                    task.Description = Markup.Escape(configurations[i].Name ?? "configuration") + string.Create(
                        CultureInfo.InvariantCulture, $" [grey]{result.Requests} requests in {result.EndSeconds:F1} s[/]");
                    task.StopTask();
                }
            });

        return results;
    }

    /// <summary>Hosts this process's instances of the scenario's first configuration until Ctrl+C.</summary>
    public async Task HostAsync(ScenarioSpec scenario, CancellationToken cancellationToken)
    {
        var configuration = (scenario.Configurations ?? [])[0];
        var names = options.HostedInstances is { } hosted ? string.Join(", ", hosted) : "every instance without an address";
        console.MarkupLine($"Hosting [bold]{Markup.Escape(names)}[/] of {Markup.Escape(scenario.Name ?? "scenario")} under {Markup.Escape(configuration.Name ?? "configuration")}; Ctrl+C stops.");
        await new LiveTopologyRunner(scenario, configuration, catalog, options).HostAsync(cancellationToken).ConfigureAwait(false);
    }
}
