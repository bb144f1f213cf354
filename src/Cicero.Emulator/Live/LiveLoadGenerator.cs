// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Threading.Channels;
using Cicero.Emulator.Live.Protocol;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;
using Grpc.Core;

namespace Cicero.Emulator.Live;

/// <summary>
/// Offers a scenario's workloads to the entry services in real time, through one grpc-dotnet channel per entry service (open loop at the generators' arrival times,
/// closed loop with think times), records every outcome, and samples σ per tier and resource utilisation.
/// </summary>
/// <remarks>
/// Producers (an open-loop workload's arrival generator, a trace reader) hand requests to the callers through bounded
/// <see cref="Channel{T}"/>s, and callers hand outcomes to the collector (<see cref="LiveMetrics"/>) through another, so
/// memory depends on how many requests are in flight, never on the run's length. When the run is stopped, producers
/// stop at once, calls in flight get <see cref="StopGrace"/> to end and are then cancelled (a <c>cancelled</c>
/// failure), so every offered request still has exactly one outcome.
/// </remarks>
internal sealed partial class LiveLoadGenerator : IDisposable
{
    /// <summary>How long calls in flight may still finish after the run is told to stop.</summary>
    public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(1);

    /// <summary>How many requests a producer may prepare ahead of the callers.</summary>
    private const int RequestCapacity = 1024;

    private static readonly TimeSpan SampleEvery = TimeSpan.FromMilliseconds(100);
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
    private readonly List<TierRateSecond> _rates = [];
    private readonly double[][] _busySums;
    private long _start;
    private long _nextId;
    private int _busySamples;

    public LiveLoadGenerator(ScenarioSpec scenario, LiveTopology topology, Node.NodeClient?[] entries, IReadOnlyList<LiveInstance?[]> instances)
    {
        _scenario = scenario;
        _topology = topology;
        _entries = entries;
        _instances = instances;
        _metrics = new LiveMetrics(topology.Compiled.Workflows);
        _busySums = [.. topology.Compiled.Services.Select(s => new double[s.Resources.Length * s.Instances])];
    }

    public double WindowSeconds => _replayWindow ?? Math.Max(1e-3, Math.Min(_stoppedAt ?? double.MaxValue, _scenario.DurationSeconds) - _scenario.WarmUpSeconds);

    /// <summary>Gets a value indicating whether the run was told to stop before its end.</summary>
    public bool Interrupted => Volatile.Read(ref _interrupted) != 0;

    private double Elapsed => TimeProvider.System.GetElapsedTime(_start).TotalSeconds;

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        _start = TimeProvider.System.GetTimestamp();
        using var stopSampling = new CancellationTokenSource();
        var sampler = SampleAsync(stopSampling.Token);
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

    public TopologyRunResult BuildResult(string configuration)
    {
        foreach (var counters in _metrics.Workflows)
        {
            if (counters.AllOffered != counters.AllCompleted + counters.AllDropped + counters.AllFailed)
            {
                throw new ConservationException(configuration, counters.Workflow.Name, counters.AllOffered, counters.AllCompleted, counters.AllDropped, counters.AllFailed);
            }

            if (counters.Offered != counters.Completed + counters.Dropped + counters.Failed)
            {
                throw new ConservationException(configuration, counters.Workflow.Name, counters.Offered, counters.Completed, counters.Dropped, counters.Failed);
            }
        }

        // Counted by state, not by the dictionary's size: a finished request's removal runs as a continuation of its
        // task, which may not have run yet when the run's last WhenAll resumes (seen under overload).
        var unfinished = _inFlight.Values.Count(t => !t.IsCompleted);
        if (unfinished > 0)
        {
            throw new ConservationException($"Conservation broken under configuration '{configuration}': {unfinished} request(s) still in flight at the end of the live run.");
        }

        var workflows = new List<WorkflowRunResult>();
        var series = new List<WorkflowSecond>();
        foreach (var counters in _metrics.Workflows)
        {
            var (latency, lnd, _) = counters.Summaries();
            counters.FailedByReason.TryGetValue(Outcome.Timeout, out var timedOut);
            workflows.Add(new WorkflowRunResult
            {
                Workflow = counters.Workflow.Name,
                Offered = counters.Offered,
                Admitted = counters.Admitted,
                Completed = counters.Completed,
                Dropped = counters.Dropped,
                Failed = counters.Failed,
                TimedOut = timedOut,
                DroppedByReason = new SortedDictionary<string, long>(counters.DroppedByReason, StringComparer.Ordinal),
                FailedByReason = new SortedDictionary<string, long>(counters.FailedByReason, StringComparer.Ordinal),
                Throughput = counters.Completed / WindowSeconds,
                OfferedRate = counters.Offered / WindowSeconds,
                CompletedFraction = counters.Offered == 0 ? double.NaN : (double)counters.Completed / counters.Offered,
                LatencyMs = latency,
                Lnd = lnd,
            });

            for (var second = 0; second < counters.Bins.Count; second++)
            {
                var bin = counters.Bins[second];
                series.Add(new WorkflowSecond(
                    second, counters.Workflow.Name, bin.Offered, bin.Completed, bin.Dropped, bin.Failed,
                    bin.Completed == 0 ? null : bin.LatencySumMs / bin.Completed));
            }
        }

        return new TopologyRunResult
        {
            Scenario = _scenario.Name ?? string.Empty,
            Configuration = configuration,
            Seed = _scenario.Seed,
            DurationSeconds = _replayWindow ?? _scenario.DurationSeconds,
            WarmUpSeconds = _scenario.WarmUpSeconds,
            EndSeconds = Elapsed,
            Events = 0,
            Requests = _nextId,
            Workflows = workflows,
            Resources = Utilizations(),
            TimeSeries = series,
            Rates = _rates,
            Interrupted = Interrupted,
        };
    }

    private async Task RunOpenLoopAsync(WorkflowDef workflow, WorkloadGenerator generator, CancellationToken cancellationToken)
    {
        // The generator draws arrivals (and partitions, from the same stream) ahead of time; the caller offers each at its time.
        var arrivals = Channel.CreateBounded<(double At, int Partition)>(new BoundedChannelOptions(RequestCapacity) { SingleReader = true, SingleWriter = true });
        var producer = Task.Run(
            async () =>
            {
                try
                {
                    for (var next = generator.NextArrivalAfter(0); next < _scenario.DurationSeconds; next = generator.NextArrivalAfter(next))
                    {
                        await arrivals.Writer.WriteAsync((next, generator.Random.Next(workflow.Partitions)), cancellationToken).ConfigureAwait(false);
                    }
                }
                catch (OperationCanceledException)
                {
                    // Stopped: the caller stops too.
                }
                finally
                {
                    arrivals.Writer.TryComplete();
                }
            },
            CancellationToken.None);
        await DispatchAsync(arrivals.Reader, static a => a.At, (a, _) => OfferAsync(workflow, a.Partition), cancellationToken).ConfigureAwait(false);
        await producer.ConfigureAwait(false);
    }

    /// <summary>Offers each request from <paramref name="reader"/> at its time, until the reader ends or the run stops.</summary>
    private async Task DispatchAsync<T>(ChannelReader<T> reader, Func<T, double> at, Func<T, CancellationToken, ValueTask<Task>> offer, CancellationToken cancellationToken)
    {
        try
        {
            await foreach (var item in reader.ReadAllAsync(cancellationToken).ConfigureAwait(false))
            {
                await DelayUntilAsync(at(item), cancellationToken).ConfigureAwait(false);
                await offer(item, cancellationToken).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException)
        {
            // Stopped: what was offered drains in DrainAsync.
        }
    }

    private async Task RunClosedLoopAsync(WorkflowDef workflow, WorkloadGenerator generator, CancellationToken cancellationToken)
    {
        var most = 0;
        for (var t = generator.Schedule.NextChangeAfter(-1); double.IsFinite(t) && t < _scenario.DurationSeconds; t = generator.Schedule.NextChangeAfter(t))
        {
            most = Math.Max(most, (int)generator.Schedule.ValueAt(t));
        }

        var randomLock = new Lock();
        await Task.WhenAll(Enumerable.Range(0, most).Select(async client =>
        {
            try
            {
                await RunClientAsync(client).ConfigureAwait(false);
            }
            catch (OperationCanceledException)
            {
                // Stopped.
            }
        })).ConfigureAwait(false);

        async Task RunClientAsync(int client)
        {
            while (!cancellationToken.IsCancellationRequested)
            {
                var now = Elapsed;
                if (now >= _scenario.DurationSeconds)
                {
                    return;
                }

                if (client >= (int)generator.Schedule.ValueAt(now))
                {
                    var change = generator.Schedule.NextChangeAfter(now);
                    await DelayUntilAsync(Math.Min(double.IsFinite(change) ? change : double.MaxValue, _scenario.DurationSeconds), cancellationToken).ConfigureAwait(false);
                    continue;
                }

                int partition;
                TimeSpan gap;
                lock (randomLock)
                {
                    partition = generator.Random.Next(workflow.Partitions);
                    var think = generator.ThinkTime is { } thinkTime ? TimeSpan.FromSeconds(thinkTime.SampleSeconds(generator.Random)) : TimeSpan.Zero;
                    gap = think > MinimumClientGap ? think : MinimumClientGap;
                }

                var request = await OfferAsync(workflow, partition).ConfigureAwait(false);
                await request.ConfigureAwait(false);
                await Task.Delay(gap, TimeProvider.System, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Counts the offer (waiting for the collector if it is behind), starts the call and returns its task.</summary>
    private async ValueTask<Task> OfferAsync(WorkflowDef workflow, int partition)
    {
        var entry = _entries[workflow.Entry.Index]!;
        var id = Interlocked.Increment(ref _nextId);
        var seconds = Elapsed;
        var measured = seconds >= _scenario.WarmUpSeconds && (seconds < _scenario.DurationSeconds || _replayWindow is not null);
        await _metrics.OfferedAsync(workflow.Index, (int)seconds, measured).ConfigureAwait(false);
        var offeredAt = TimeProvider.System.GetTimestamp();
        var task = SendAsync(workflow, entry, new NodeRequest
        {
            Workflow = workflow.Index,
            Body = _topology.Plans.IdOf(workflow.Body),
            Partition = partition,
            Block = -1,
            RequestId = id,
        }, offeredAt, measured);

        // Added before the removal is attached, so a request that already finished is still removed.
        _inFlight[id] = task;
        _ = task.ContinueWith(_ => _inFlight.TryRemove(id, out Task? _), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
        return task;
    }

    private async Task SendAsync(WorkflowDef workflow, Node.NodeClient entry, NodeRequest request, long offeredAt, bool measured)
    {
        Outcome outcome;
        try
        {
            var headers = new Metadata { { LiveTopology.WorkflowHeader, workflow.Name } };
            using var call = entry.ExecuteAsync(request, headers, TimeProvider.System.GetUtcNow().UtcDateTime + _topology.RpcTimeout, _abort.Token);

            // Most calls of an overload run are turned away: read how each ended rather than have every one throw here.
            var response = call.ResponseAsync;
            await ((Task)response).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
            outcome = response.Status switch
            {
                TaskStatus.RanToCompletion => Outcome.Ok,
                TaskStatus.Faulted when response.Exception!.InnerException is RpcException ex => LiveOutcomes.Classify(ex),
                _ => Outcome.Failed("client-" + (response.Exception?.InnerException?.GetType().Name ?? nameof(TaskCanceledException))),
            };
        }
        catch (Exception ex) when (ex is not OutOfMemoryException)
        {
            // Still an outcome: a request is never lost from the books, whatever went wrong on the client side.
            outcome = Outcome.Failed("client-" + ex.GetType().Name);
        }

        var latency = TimeProvider.System.GetElapsedTime(offeredAt);
        await _metrics.FinishedAsync(workflow.Index, outcome, latency.TotalMilliseconds, _topology.DeadlineOf(workflow.Id), (int)Elapsed, measured).ConfigureAwait(false);
    }

    private async Task DelayUntilAsync(double seconds, CancellationToken cancellationToken)
    {
        var wait = TimeSpan.FromSeconds(seconds - Elapsed);
        if (wait > TimeSpan.FromMilliseconds(1))
        {
            await Task.Delay(wait, TimeProvider.System, cancellationToken).ConfigureAwait(false);
        }
    }

    private async Task SampleAsync(CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(SampleEvery, TimeProvider.System);
        var lastSecond = -1;
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                var now = Elapsed;
                if (now >= _scenario.WarmUpSeconds && now < _scenario.DurationSeconds)
                {
                    SampleBusy();
                }

                var second = (int)now;
                if (second != lastSecond && now < _scenario.DurationSeconds)
                {
                    lastSecond = second;
                    SampleRates(second);
                }
            }
        }
        catch (OperationCanceledException)
        {
            // The run is over.
        }
    }

    private void SampleBusy()
    {
        foreach (var service in _topology.Compiled.Services)
        {
            var instances = _instances[service.Index];
            for (var i = 0; i < instances.Length; i++)
            {
                if (instances[i] is not { } instance)
                {
                    continue;
                }

                for (var r = 0; r < service.Resources.Length; r++)
                {
                    var resource = instance.Resources[r];
                    _busySums[service.Index][(i * service.Resources.Length) + r] += Math.Min(1, resource.InUse / (double)resource.Capacity);
                }
            }
        }

        _busySamples++;
    }

    private void SampleRates(int second)
    {
        foreach (var service in _topology.Compiled.Services)
        {
            foreach (var workflow in _topology.Compiled.Workflows)
            {
                var total = 0.0;
                var limited = 0;
                foreach (var instance in _instances[service.Index])
                {
                    if (instance is null)
                    {
                        continue;
                    }

                    var sigma = instance.Runtime.RateAdaptation.GetAnnouncedRate(workflow.Id);
                    if (double.IsFinite(sigma))
                    {
                        total += sigma;
                        limited++;
                    }
                }

                _rates.Add(new TierRateSecond(second, service.Name, workflow.Name, limited == 0 ? null : total, limited));
            }
        }
    }

    private List<ResourceUtilization> Utilizations()
    {
        var list = new List<ResourceUtilization>();
        foreach (var service in _topology.Compiled.Services)
        {
            for (var r = 0; r < service.Resources.Length; r++)
            {
                var spec = service.Resources[r];
                var sum = 0.0;
                var max = 0.0;
                for (var i = 0; i < service.Instances; i++)
                {
                    var utilization = _busySamples == 0 ? 0 : _busySums[service.Index][(i * service.Resources.Length) + r] / _busySamples;
                    sum += utilization;
                    max = Math.Max(max, utilization);
                }

                list.Add(new ResourceUtilization(service.Name, spec.Name!, spec.Kind!, spec.Capacity, sum / service.Instances, max));
            }
        }

        return list;
    }
}
