// SPDX-License-Identifier: Apache-2.0

using System.Threading.Channels;
using Cicero.Emulator.Live.Protocol;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;
using Grpc.Core;

namespace Cicero.Emulator.Live;

/// <summary>Workloads: open loop at the generators' arrival times, closed loop with think times, and each call from offer to outcome.</summary>
internal sealed partial class LiveLoadGenerator
{
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
}
