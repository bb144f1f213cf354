// SPDX-License-Identifier: Apache-2.0

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
        var random = new Random(SeedStreams.Derive(_scenario.Seed, SeedStreams.FirstWorkload));
        var randomLock = new Lock();
        using var requests = plan.Requests.GetEnumerator();
        var requestsLock = new Lock();

        if (options.ClosedLoopClients is { } clients)
        {
            // Section 5.3.2: each client sends the next request in trace order as soon as its previous one has an outcome.
            await Task.WhenAll(Enumerable.Range(0, clients).Select(async _ =>
            {
                while (!cancellationToken.IsCancellationRequested)
                {
                    Task request;
                    lock (requestsLock)
                    {
                        if (!requests.MoveNext())
                        {
                            return;
                        }

                        lock (randomLock)
                        {
                            request = Offer(workflows[requests.Current.Workflow], random);
                        }
                    }

                    await request.ConfigureAwait(false);
                    await Task.Delay(MinimumClientGap, TimeProvider.System, cancellationToken).ConfigureAwait(false);
                }
            })).ConfigureAwait(false);
        }
        else
        {
            // Open loop: each request at its recorded arrival (the plan's time scale applied) divided by the speed-up.
            while (!cancellationToken.IsCancellationRequested && requests.MoveNext())
            {
                var request = requests.Current;
                await DelayUntilAsync(request.ArrivalSeconds / options.SpeedUp, cancellationToken).ConfigureAwait(false);
                _ = Offer(workflows[request.Workflow], random);
            }
        }

        // Every offered request has a deadline (the RPC timeout), so this ends.
        await Task.WhenAll(_inFlight.Values).ConfigureAwait(false);
        _replayWindow = Math.Max(Elapsed, 1e-3);
    }
}
