// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// Rate control in a run: each instance's rounds of Algorithm 3 (staggered over the control interval), the rate
/// exchange between callers and their downstream instances, and the per-second Σσ samples per tier.
/// </summary>
internal sealed class RateExchange(TopologySimulation simulation, long controlIntervalTicks, long durationTicks, TraceReplayDriver? replay)
{
    private static readonly Action<object?> OnRateRound = static state => ((SimInstance)state!).Simulation.RateExchange.Round((SimInstance)state);
    private static readonly Action<object?> OnSample = static state => ((RateExchange)state!).SampleRates();

    /// <summary>Gets the per-second Σσ samples so far.</summary>
    public List<TierRateSecond> Rates { get; } = [];

    /// <summary>Tells every instance its downstream instances and, under rate control, schedules its rounds and the samples.</summary>
    public void Start(bool rateControl)
    {
        var instances = simulation.Instances;
        var total = 0;
        foreach (var service in instances)
        {
            total += service.Length;
        }

        var global = 0;
        foreach (var service in instances)
        {
            foreach (var instance in service)
            {
                foreach (var callee in instance.Service.Callees)
                {
                    instance.RateAdaptation.SetDownstreamInstances(callee.Name, instances[callee.Index].Select(i => i.Id));
                }

                global++;
                if (rateControl)
                {
                    // Stagger the instances' rounds over the interval, as unsynchronised timers would be, deterministically.
                    var phase = controlIntervalTicks * global / (total + 1);
                    simulation.Clock.ScheduleAt(phase + (2 * simulation.NetworkTicks), OnRateRound, instance);
                }
            }
        }
    }

    /// <summary>Schedules the first per-second Σσ sample (the workloads start first, as they always have).</summary>
    public void StartSampling() => simulation.Clock.ScheduleAt(TimeSpan.TicksPerSecond, OnSample, this);

    /// <summary>
    /// One round of Algorithm 3 at an instance: the replies to its queries (sent one round trip ago) are recorded, then
    /// the control step runs. The answers are taken as the downstream instances state them when the replies land.
    /// </summary>
    private void Round(SimInstance instance)
    {
        var now = simulation.Now;
        if (!instance.IsDown)
        {
            foreach (var callee in instance.Service.Callees)
            {
                foreach (var target in simulation.Instances[callee.Index])
                {
                    // A dead instance or a broken link answers nothing: the caller keeps the last answer, then lets it
                    // expire (RateAdaptationOptions.HoldTime), as it would with a real timeout.
                    if (!target.IsDown && !target.RateExchangeLost && !instance.RateExchangeLost)
                    {
                        instance.RateAdaptation.RecordAnswer(new DownstreamInstance(callee.Name, target.Id), target.RateAdaptation.GetAdmissionRatesFor(instance.Id), now);
                    }
                }
            }

            instance.RateAdaptation.Step(now);
        }

        if (now < durationTicks + simulation.RpcTimeoutTicks || replay is { Exhausted: false })
        {
            simulation.Clock.ScheduleAt(IdleGap.Next(now, controlIntervalTicks, simulation.NextArrivalWhileIdle), OnRateRound, instance);
        }
    }

    private void SampleRates()
    {
        var now = simulation.Now;
        RunResults.SampleRates(Rates, (int)(now / TimeSpan.TicksPerSecond), simulation.Compiled, service => simulation.Instances[service.Index].Select(instance => instance.Runtime));

        if (now < durationTicks || replay is { Exhausted: false })
        {
            simulation.Clock.ScheduleAt(IdleGap.Next(now, TimeSpan.TicksPerSecond, simulation.NextArrivalWhileIdle), OnSample, this);
        }
    }
}
