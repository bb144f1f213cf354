// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Threading.Channels;
using Cicero.Emulator.Live.Protocol;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Live;

/// <summary>
/// Offers a scenario's workloads to the entry services in real time, through one grpc-dotnet channel per entry service
/// (open loop at the generators' arrival times, closed loop with think times: <c>LiveLoadGenerator.Workloads.cs</c>;
/// trace replay: <c>.Replay.cs</c>), records every outcome, and has <see cref="LiveRunSampler"/> sample σ per tier and
/// resource utilisation. The results come from the same <see cref="RunResults"/> pipeline as the simulator's.
/// </summary>
/// <remarks>
/// <para>
/// Producers (an open-loop workload's arrival generator, a trace reader) hand requests to the callers through bounded
/// <see cref="Channel{T}"/>s, and callers hand outcomes to the collector (<see cref="LiveMetrics"/>) through another, so
/// memory depends on how many requests are in flight, never on the run's length.
/// </para>
/// <para>
/// Invariants: every offered request is counted as offered before its call starts and gets exactly one outcome
/// (completed, dropped or failed; a client-side exception is a failure, never lost); a request is in
/// <c>_inFlight</c> from its offer until its call's task ends; whether it is measured is decided once, at the offer.
/// Running -> stopping (the token fires: producers stop at once, calls in flight get <see cref="StopGrace"/> and are
/// then cancelled, a <c>cancelled</c> failure) -> drained (nothing in flight) -> collected (the collector applied every
/// event); <see cref="BuildResult"/> is valid only in the last state.
/// </para>
/// </remarks>
internal sealed partial class LiveLoadGenerator : IDisposable
{
    /// <summary>How long calls in flight may still finish after the run is told to stop.</summary>
    public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(1);

    /// <summary>How many requests a producer may prepare ahead of the callers.</summary>
    private const int RequestCapacity = 1024;

    private static readonly TimeSpan MinimumClientGap = TimeSpan.FromMilliseconds(1);
    private readonly CancellationTokenSource _abort = new();
    private int _interrupted;
    private double? _stoppedAt;

    private readonly ScenarioSpec _scenario;
    private readonly LiveTopology _topology;
    private readonly Node.NodeClient?[] _entries;
    private readonly IReadOnlyList<LiveInstance?[]> _instances;
    private readonly LiveMetrics _metrics;
    private readonly ConcurrentDictionary<long, Task> _inFlight = new();
    private readonly LiveRunSampler _sampler;
    private long _start;
    private long _nextId;

    public LiveLoadGenerator(ScenarioSpec scenario, LiveTopology topology, Node.NodeClient?[] entries, IReadOnlyList<LiveInstance?[]> instances)
    {
        _scenario = scenario;
        _topology = topology;
        _entries = entries;
        _instances = instances;
        _metrics = new LiveMetrics(topology.Compiled.Workflows);
        _sampler = new LiveRunSampler(scenario, topology, instances);
    }

    public double WindowSeconds => _replayWindow ?? Math.Max(1e-3, Math.Min(_stoppedAt ?? double.MaxValue, _scenario.DurationSeconds) - _scenario.WarmUpSeconds);

    /// <summary>Gets a value indicating whether the run was told to stop before its end.</summary>
    public bool Interrupted => Volatile.Read(ref _interrupted) != 0;

    private double Elapsed => TimeProvider.System.GetElapsedTime(_start).TotalSeconds;

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        _start = TimeProvider.System.GetTimestamp();
        using var stopSampling = new CancellationTokenSource();
        var sampler = _sampler.SampleAsync(() => Elapsed, stopSampling.Token);
        var workloads = new List<Task>();
        var specs = _scenario.Workloads!;
        for (var w = 0; w < specs.Count; w++)
        {
            var spec = specs[w];
            var workflow = _topology.Compiled.Workflows.First(d => d.Name == spec.Workflow);
            var generator = WorkloadGenerator.Create(spec, _scenario.DurationSeconds, SeedStreams.Derive(_scenario.Seed, SeedStreams.FirstWorkload + w));
            workloads.Add(generator.IsClosedLoop
                ? RunClosedLoopAsync(workflow, generator, cancellationToken)
                : RunOpenLoopAsync(workflow, generator, cancellationToken));
        }

        await Task.WhenAll(workloads).ConfigureAwait(false);
        await DrainAsync(cancellationToken).ConfigureAwait(false);
        await stopSampling.CancelAsync().ConfigureAwait(false);
        await sampler.ConfigureAwait(false);
        await _metrics.CompleteAsync().ConfigureAwait(false);
    }

    /// <summary>Waits for every request in flight; once stopped, cancels those still in flight after <see cref="StopGrace"/>.</summary>
    private async Task DrainAsync(CancellationToken cancellationToken)
    {
        using var registration = cancellationToken.Register(static state => ((LiveLoadGenerator)state!).BeginStop(), this);

        // Every offered request has a deadline (the RPC timeout), so this ends, and sooner once the run is stopped.
        await Task.WhenAll(_inFlight.Values).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public void Dispose() => _abort.Dispose();

    private void BeginStop()
    {
        if (Interlocked.Exchange(ref _interrupted, 1) == 0)
        {
            _stoppedAt = Elapsed;
            _abort.CancelAfter(StopGrace);
        }
    }

    /// <summary>Hands the counts and samples to the shared results pipeline; call after <see cref="RunAsync"/> or <see cref="ReplayAsync"/>.</summary>
    public TopologyRunResult BuildResult(string configuration) =>
        RunResults.Build(_metrics.Metrics, new RunResultInputs(
            Scenario: _scenario.Name ?? string.Empty,
            Configuration: configuration,
            Seed: _scenario.Seed,
            DurationSeconds: _replayWindow ?? _scenario.DurationSeconds,
            WarmUpSeconds: _scenario.WarmUpSeconds,
            EndSeconds: Elapsed,
            Events: 0,
            Requests: _nextId,

            // Counted by state, not by the dictionary's size: a finished request's removal runs as a continuation of its
            // task, which may not have run yet when the run's last WhenAll resumes (seen under overload).
            WindowSeconds: WindowSeconds,
            Unfinished: _inFlight.Values.Count(t => !t.IsCompleted),
            RunKind: "live run",
            Resources: RunResults.Utilizations(_topology.Compiled.Services, _sampler.BusyShare),
            Rates: _sampler.Rates,
            Interrupted: Interrupted));
}
