// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Results: what only the simulator measures (busy time to the tick), handed to the shared <see cref="RunResults"/>.</summary>
public sealed partial class TopologySimulation
{
    private TopologyRunResult BuildResult()
    {
        // The measured window: the scenario's, unless the run was stopped early or is a replay (Run sets the end then).
        var window = _replay is null && !Stopped
            ? _scenario.DurationSeconds - _scenario.WarmUpSeconds
            : (WindowEndTicks - WindowStartTicks) / (double)TimeSpan.TicksPerSecond;
        var windowTicks = (double)(WindowEndTicks - WindowStartTicks);
        return RunResults.Build(_metrics, new RunResultInputs(
            Scenario: _scenario.Name ?? string.Empty,
            Configuration: _configuration.Name ?? "configuration",
            Seed: _scenario.Seed,
            DurationSeconds: _scenario.DurationSeconds,
            WarmUpSeconds: _scenario.WarmUpSeconds,
            EndSeconds: Clock.Elapsed.TotalSeconds,
            Events: Clock.CallbacksRun,
            Requests: _nextRequestId,
            WindowSeconds: window,
            Unfinished: _inFlight,
            RunKind: "run",
            Resources: RunResults.Utilizations(
                Compiled.Services,
                (service, instance, r) => Instances[service.Index][instance].BusyTicks[r] / (service.Resources[r].Capacity * windowTicks)),
            Rates: RateExchange.Rates,
            Interrupted: Stopped), leaveOutLongIdle: _replay is not null);
    }
}
