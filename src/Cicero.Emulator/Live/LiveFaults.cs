// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Live;

/// <summary>
/// Injected faults in the live runner, for instances hosted in this process: <c>kill</c> stops the instance's server at
/// once (its calls are aborted, its callers' connections refused) and starts a new process-equivalent on the same port
/// at <c>untilSeconds</c>; <c>slow</c> multiplies its service times. <c>rate-exchange-loss</c> is simulated only.
/// </summary>
internal sealed class LiveFaults(LiveTopology topology, ConfigurationSpec configuration, IEnumerable<FaultSpec> faults, List<LiveInstance?[]> instances, List<Uri?[]> addresses, int seed)
{
    public Task RunAsync(CancellationToken cancellationToken)
    {
        var started = TimeProvider.System.GetTimestamp();
        return Task.WhenAll(faults.Select(fault => RunOneAsync(fault, started, cancellationToken)));
    }

    private async Task RunOneAsync(FaultSpec fault, long started, CancellationToken cancellationToken)
    {
        var service = topology.Compiled.Services.First(s => s.Name == fault.Service);
        var tier = instances[service.Index];
        if (tier[fault.Instance] is null || fault.Kind == FaultKinds.RateExchangeLoss)
        {
            // Not hosted here, or not a fault the live runner can inject.
            return;
        }

        await DelayUntilAsync(started, fault.AtSeconds, cancellationToken).ConfigureAwait(false);
        if (fault.Kind == FaultKinds.Slow)
        {
            tier[fault.Instance]!.FaultFactor = fault.Factor;
            await DelayUntilAsync(started, fault.UntilSeconds, cancellationToken).ConfigureAwait(false);
            tier[fault.Instance]!.FaultFactor = 1;
            return;
        }

        var address = tier[fault.Instance]!.Address;
        var ports = tier[fault.Instance]!.Ports;
        await tier[fault.Instance]!.KillAsync().ConfigureAwait(false);
        await DelayUntilAsync(started, fault.UntilSeconds, cancellationToken).ConfigureAwait(false);

        // The restarted process: fresh state, same address (so callers, C3 and rate exchange find it again).
        var restarted = new LiveInstance(topology, service, fault.Instance, configuration, seed) { Ports = ports };
        await restarted.StartAsync(address, address.Host).ConfigureAwait(false);
        restarted.Connect(addresses);
        tier[fault.Instance] = restarted;
    }

    private static async Task DelayUntilAsync(long started, double seconds, CancellationToken cancellationToken)
    {
        var wait = TimeSpan.FromSeconds(seconds) - TimeProvider.System.GetElapsedTime(started);
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, TimeProvider.System, cancellationToken).ConfigureAwait(false);
        }
    }
}
