// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Drives one service's background periods (<see cref="Scenarios.BackgroundSpec"/>): at every interval each instance
/// independently draws whether it is in a background period until the next draw. Its own seeded stream, so the periods
/// are the same under every configuration of a scenario.
/// </summary>
internal sealed class BackgroundActivity
{
    private static readonly Action<object?> OnTick = static state => ((BackgroundActivity)state!).Tick();
    private readonly TopologySimulation _simulation;
    private readonly SimInstance[] _instances;
    private readonly Random _random;
    private readonly double _probability;
    private readonly long _intervalTicks;
    private readonly long _endTicks;

    public BackgroundActivity(TopologySimulation simulation, ServiceDef service, int seed, long endTicks)
    {
        _simulation = simulation;
        _instances = simulation.Instances[service.Index];
        _random = new Random(SeedStreams.Derive(seed, SeedStreams.FirstBackground + service.Index));
        _probability = service.Background!.Probability;
        _intervalTicks = Math.Max(1, (long)Math.Round(service.Background.IntervalMs * TimeSpan.TicksPerMillisecond));
        _endTicks = endTicks;
    }

    public void Start() => _simulation.Clock.ScheduleAt(0, OnTick, this);

    private void Tick()
    {
        foreach (var instance in _instances)
        {
            instance.InBackground = _random.NextDouble() < _probability;
        }

        var next = _simulation.Now + _intervalTicks;
        if (next < _endTicks)
        {
            _simulation.Clock.ScheduleAt(next, OnTick, this);
        }
    }
}
