// SPDX-License-Identifier: Apache-2.0

using System.Threading.Channels;
using Cicero.Emulator.Traces.Replay;
using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Live;

/// <summary>Trace replay: requests in trace order, open loop at their recorded times or closed loop with N clients.</summary>
internal sealed partial class LiveLoadGenerator
{
    // Set while replaying: the whole run is measured, and the window is the run's length, whatever the scenario says.
    private double? _replayWindow;

    public async Task ReplayAsync(TraceReplayPlan plan, LiveReplayOptions options, CancellationToken cancellationToken)
    {
        _start = TimeProvider.System.GetTimestamp();
        _replayWindow = double.MaxValue;
        var workflows = plan.Workflows.Select(w => _topology.Compiled.Workflows.First(d => d.Name == w.Name)).ToArray();

        // The trace reader runs ahead of the callers by at most RequestCapacity requests: memory does not depend on the
        // trace's length. It draws each request's partition too, so the one random stream has one user.
        var requests = Channel.CreateBounded<(double At, int Workflow, int Partition)>(new BoundedChannelOptions(RequestCapacity)
        {
            SingleWriter = true,
            SingleReader = options.ClosedLoopClients is null,
        });
        var reader = Task.Run(
            async () =>
            {
                var random = new Random(SeedStreams.Derive(_scenario.Seed, SeedStreams.FirstWorkload));
                try
                {
                    foreach (var request in plan.Requests)
                    {
                        var partition = random.Next(workflows[request.Workflow].Partitions);
                        await requests.Writer.WriteAsync((request.ArrivalSeconds / options.SpeedUp, request.Workflow, partition), cancellationToken).ConfigureAwait(false);
                    }

                    requests.Writer.TryComplete();
                }
                catch (OperationCanceledException)
                {
                    requests.Writer.TryComplete();
                }
                catch (Exception ex)
                {
                    // A trace that turns out unreadable half-way: the callers stop, and the error surfaces below.
                    requests.Writer.TryComplete(ex);
                    throw;
                }
            },
            CancellationToken.None);

        if (options.ClosedLoopClients is { } clients)
        {
            // Section 5.3.2: each client sends the next request in trace order as soon as its previous one has an outcome.
            await Task.WhenAll(Enumerable.Range(0, clients).Select(async _ =>
            {
                try
                {
                    await foreach (var request in requests.Reader.ReadAllAsync(cancellationToken).ConfigureAwait(false))
                    {
                        var call = await OfferAsync(workflows[request.Workflow], request.Partition).ConfigureAwait(false);
                        await call.ConfigureAwait(false);
                        await Task.Delay(MinimumClientGap, TimeProvider.System, cancellationToken).ConfigureAwait(false);
                    }
                }
                catch (OperationCanceledException)
                {
                    // Stopped.
                }
                catch (Exception) when (requests.Reader.Completion.IsFaulted)
                {
                    // The trace reader failed; its error is rethrown below, once the calls in flight have ended.
                }
            })).ConfigureAwait(false);
        }
        else
        {
            // Open loop: each request at its recorded arrival (the plan's time scale applied) divided by the speed-up.
            try
            {
                await DispatchAsync(requests.Reader, static r => r.At, (r, _) => OfferAsync(workflows[r.Workflow], r.Partition), cancellationToken).ConfigureAwait(false);
            }
            catch (Exception) when (requests.Reader.Completion.IsFaulted)
            {
                // The trace reader failed; its error is rethrown below, once the calls in flight have ended.
            }
        }

        await DrainAsync(cancellationToken).ConfigureAwait(false);
        _replayWindow = Math.Max(Elapsed, 1e-3);
        await _metrics.CompleteAsync().ConfigureAwait(false);
        await reader.ConfigureAwait(false);
    }
}
