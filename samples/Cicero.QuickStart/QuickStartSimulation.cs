// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;

namespace Cicero.QuickStart;

/// <summary>
/// Four Cicero processes in one virtual clock: fe calls mid once per request; mid calls the leaf service twice (α = 2),
/// once on each of its two instances. Each process runs its own rate adaptation loop; nothing is central.
/// </summary>
internal sealed class QuickStartSimulation(QuickStartSettings settings)
{
    private const string Workflow = "tenant-a";
    private readonly VirtualTimeProvider _clock = new();
    private readonly InMemoryDownstreamRateSource _source = new();

    public QuickStartResult Run(TextWriter output)
    {
        var fe = Process("fe", PassThroughRateLimitPolicy.Instance);
        var mid = Process("mid", PassThroughRateLimitPolicy.Instance);
        var leaf1Policy = new CapacityPolicy(settings.Capacity);
        var leaf2Policy = new CapacityPolicy(settings.Capacity);
        var leaf1 = Process("leaf-1", leaf1Policy);
        var leaf2 = Process("leaf-2", leaf2Policy);
        _source.Register(new DownstreamInstance("mid", "mid-0"), mid.RateAdaptation);
        _source.Register(new DownstreamInstance("leaf", "leaf-1"), leaf1.RateAdaptation);
        _source.Register(new DownstreamInstance("leaf", "leaf-2"), leaf2.RateAdaptation);
        fe.RateAdaptation.SetDownstreamInstances("mid", ["mid-0"]);
        mid.RateAdaptation.SetDownstreamInstances("leaf", ["leaf-1", "leaf-2"]);

        // Offer three times what the leaves can take; admitted requests flow down the chain.
        var admitted = 0;
        var gap = TimeSpan.FromSeconds(1 / (3 * settings.Capacity));
        void Arrive(object? state)
        {
            var context = fe.StartRequest(Workflow);
            if (fe.Admission.TryAdmit(context).IsAdmitted)
            {
                admitted++;
                if (Call(fe, mid, "mid", "mid-0"))
                {
                    Call(mid, leaf1, "leaf", "leaf-1");
                    Call(mid, leaf2, "leaf", "leaf-2");
                }
            }

            _clock.Schedule(gap, Arrive, null);
        }

        _clock.Schedule(gap, Arrive, null);

        output.WriteLine($"q = {settings.Quantile.ToString(CultureInfo.InvariantCulture)}, leaf capacity C = {settings.Capacity.ToString(CultureInfo.InvariantCulture)} req/s, offered load 3C at fe");
        output.WriteLine("  t (s)      fe σ     mid σ  leaf-1 σ  leaf-2 σ  fe admitted/s");
        var halfway = settings.Seconds / 2;
        var settled = 0.0;
        var lastAdmitted = 0;
        for (var t = 0.5; t <= settings.Seconds + 1e-9; t += 0.5)
        {
            if (t > halfway && leaf2Policy.Capacity == settings.Capacity)
            {
                settled = fe.RateAdaptation.GetAnnouncedRate(Workflow);
                leaf2Policy.Capacity = settings.Capacity / 2;
                output.WriteLine($"  -- leaf-2 drops to half its capacity at t = {halfway.ToString(CultureInfo.InvariantCulture)} s --");
            }

            _clock.RunUntil(TimeSpan.FromSeconds(t).Ticks);
            output.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"{t,7:F1} {Rate(fe),9} {Rate(mid),9} {Rate(leaf1),9} {Rate(leaf2),9} {(admitted - lastAdmitted) * 2,14}"));
            lastAdmitted = admitted;
        }

        var final = fe.RateAdaptation.GetAnnouncedRate(Workflow);
        // Two leaves of capacity C, called evenly α = 2 times per request: fe may admit 2C/2 = C. After the halving
        // the implied rates are {C, C/2}, and fe admits their q-quantile.
        var expectedFinal = settings.Capacity * (0.5 + (0.5 * settings.Quantile));
        return new QuickStartResult(settled, settings.Capacity, final, expectedFinal);
    }

    private static string Rate(CiceroRuntime process)
    {
        var rate = process.RateAdaptation.GetAnnouncedRate(Workflow);
        return double.IsPositiveInfinity(rate) ? "∞" : rate.ToString("F1", CultureInfo.InvariantCulture);
    }

    private static bool Call(CiceroRuntime caller, CiceroRuntime callee, string service, string instance)
    {
        caller.Model.Get(caller.Registry.Resolve(Workflow)).RecordDownstreamCall(service, instance);
        return callee.Admission.TryAdmit(callee.StartRequest(Workflow), caller.RateAdaptation.Options.ProcessId).IsAdmitted;
    }

    private CiceroRuntime Process(string id, IRateLimitPolicy policy)
    {
        var options = new CiceroOptions();
        options.RateAdaptation.ProcessId = id;
        options.RateAdaptation.Quantile = settings.Quantile;
        options.Admission.RunContinuationsAsynchronously = false;
        var runtime = new CiceroRuntime(options, _clock, policy, rateSource: _source);
        runtime.RateAdaptation.Start();
        return runtime;
    }
}
