// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>Sampling: resource busy time every 100 ms inside the measured window, and Σσ per tier once a second.</summary>
internal sealed partial class LiveLoadGenerator
{
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

    private void SampleRates(int second) =>
        RunResults.SampleRates(_rates, second, _topology.Compiled, service => _instances[service.Index].OfType<LiveInstance>().Select(instance => instance.Runtime));
}
