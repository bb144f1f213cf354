// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>
/// Samples a live run for its results: resource busy time every 100 ms inside the measured window, and Σσ per tier
/// once a second, for the instances this process hosts (what <see cref="LiveLoadGenerator"/> reports beside its
/// outcomes).
/// </summary>
internal sealed class LiveRunSampler
{
    private static readonly TimeSpan SampleEvery = TimeSpan.FromMilliseconds(100);
    private readonly ScenarioSpec _scenario;
    private readonly LiveTopology _topology;
    private readonly IReadOnlyList<LiveInstance?[]> _instances;
    private readonly double[][] _busySums;
    private int _busySamples;

    public LiveRunSampler(ScenarioSpec scenario, LiveTopology topology, IReadOnlyList<LiveInstance?[]> instances)
    {
        _scenario = scenario;
        _topology = topology;
        _instances = instances;
        _busySums = [.. topology.Compiled.Services.Select(s => new double[s.Resources.Length * s.Instances])];
    }

    /// <summary>Gets Σσ per tier, workflow and second.</summary>
    public List<TierRateSecond> Rates { get; } = [];

    /// <summary>Samples until <paramref name="cancellationToken"/> fires; <paramref name="elapsed"/> gives the run's seconds so far.</summary>
    public async Task SampleAsync(Func<double> elapsed, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(SampleEvery, TimeProvider.System);
        var lastSecond = -1;
        try
        {
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
            {
                var now = elapsed();
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

    /// <summary>The mean busy share of one resource of one instance over the samples, 0 without samples.</summary>
    public double BusyShare(ServiceDef service, int instance, int resource) =>
        _busySamples == 0 ? 0 : _busySums[service.Index][(instance * service.Resources.Length) + resource] / _busySamples;

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
        RunResults.SampleRates(Rates, second, _topology.Compiled, service => _instances[service.Index].OfType<LiveInstance>().Select(instance => instance.Runtime));
}
