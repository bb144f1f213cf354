// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;

namespace Cicero.Tests.RateAdaptation;

/// <summary>
/// Exact composition up the graph, in virtual time: one second of traffic through real admission controllers and
/// models, then one control step per process from the leaves up, each recording its callees' answers. The expected
/// entry rates are computed by hand from the leaves' limits.
/// </summary>
public sealed class CompositionTests : IDisposable
{
    private const string Workflow = "w";
    private readonly VirtualTimeProvider _clock = new();
    private readonly List<CiceroRuntime> _processes = [];

    [Fact]
    public void Chain_EntryFollowsTheLeaf()
    {
        // fe → mid → leaf, one call per hop; the leaf allows 60 calls/s and fe admits 100/s: fe may admit 60/s.
        var fe = Process("fe");
        var mid = Process("mid");
        var leaf = Process("leaf", limit: 60);
        Traffic(fe, 100, () =>
        {
            Call(fe, "mid", mid);
            Call(mid, "leaf", leaf);
        });

        StepUp((leaf, []), (mid, [("leaf", leaf)]), (fe, [("mid", mid)]));

        Assert.Equal(60, mid.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(60, fe.RateAdaptation.GetDownstreamRate(Workflow), 6);
    }

    [Fact]
    public void SequentialFanOutOfK_EntryGetsTheLeafAllowanceOverK()
    {
        // mid calls the leaf k = 3 times per request: 60 calls/s at the leaf carry 20 requests/s.
        var fe = Process("fe");
        var mid = Process("mid");
        var leaf = Process("leaf", limit: 60);
        Traffic(fe, 100, () =>
        {
            Call(fe, "mid", mid);
            for (var k = 0; k < 3; k++)
            {
                Call(mid, "leaf", leaf);
            }
        });

        StepUp((leaf, []), (mid, [("leaf", leaf)]), (fe, [("mid", mid)]));

        Assert.Equal(20, fe.RateAdaptation.GetDownstreamRate(Workflow), 6);
    }

    [Fact]
    public void ParallelFanOut_EntryFollowsTheTighterBranch()
    {
        // Every request calls both a and b; a allows 60/s, b 30/s: fe may admit 30/s.
        var fe = Process("fe");
        var a = Process("a", limit: 60);
        var b = Process("b", limit: 30);
        Traffic(fe, 100, () =>
        {
            Call(fe, "a", a);
            Call(fe, "b", b);
        });

        StepUp((a, []), (b, []), (fe, [("a", a), ("b", b)]));

        Assert.Equal(30, fe.RateAdaptation.GetDownstreamRate(Workflow), 6);
    }

    [Fact]
    public void Diamond_SharedLeafIsSplitBetweenThePaths()
    {
        // fe → b → d and fe → c → d: each request puts 2 calls on d, which allows 60/s, so fe may admit 30/s.
        var fe = Process("fe");
        var b = Process("b");
        var c = Process("c");
        var d = Process("d", limit: 60);
        Traffic(fe, 100, () =>
        {
            Call(fe, "b", b);
            Call(b, "d", d);
            Call(fe, "c", c);
            Call(c, "d", d);
        });

        StepUp((d, []), (b, [("d", d)]), (c, [("d", d)]), (fe, [("b", b), ("c", c)]));

        Assert.Equal(30, b.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(30, c.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(30, fe.RateAdaptation.GetDownstreamRate(Workflow), 6);
    }

    [Fact]
    public void TwoEntries_EachGetsItsShareOfTheLeaf()
    {
        // fe-1 sends 100/s and fe-2 50/s to a leaf that allows 60/s: 40/s and 20/s, 60/s in all.
        var fe1 = Process("fe-1");
        var fe2 = Process("fe-2");
        var leaf = Process("leaf", limit: 60);
        Traffic(fe1, 100, () => Call(fe1, "leaf", leaf));
        Traffic(fe2, 50, () => Call(fe2, "leaf", leaf));

        StepUp((leaf, []), (fe1, [("leaf", leaf)]), (fe2, [("leaf", leaf)]));

        Assert.Equal(40, fe1.RateAdaptation.GetDownstreamRate(Workflow), 6);
        Assert.Equal(20, fe2.RateAdaptation.GetDownstreamRate(Workflow), 6);
    }

    [Fact]
    public void EntryAllowance_DividesTheTierRateByItsCallsPerEntryRequest()
    {
        Assert.Equal(20, RateAggregation.EntryAllowance(60, 3), 9);
        Assert.Equal(double.PositiveInfinity, RateAggregation.EntryAllowance(60, 0));
        Assert.Equal(double.PositiveInfinity, RateAggregation.EntryAllowance(double.PositiveInfinity, 2));
    }

    public void Dispose()
    {
        foreach (var process in _processes)
        {
            process.Dispose();
        }
    }

    private CiceroRuntime Process(string id, double limit = double.PositiveInfinity)
    {
        var options = new CiceroOptions();
        options.RateAdaptation.ProcessId = id;
        options.Model.EwmaWeight = 1;
        var runtime = new CiceroRuntime(options, _clock, new FixedPolicy(limit));
        _processes.Add(runtime);
        return runtime;
    }

    /// <summary>Offers <paramref name="count"/> requests to an entry over the coming second and runs <paramref name="onAdmitted"/> for each.</summary>
    private static void Traffic(CiceroRuntime entry, int count, Action onAdmitted)
    {
        for (var i = 0; i < count; i++)
        {
            Assert.True(entry.Admission.TryAdmit(entry.StartRequest(Workflow)).IsAdmitted);
            onAdmitted();
        }
    }

    private static void Call(CiceroRuntime caller, string service, CiceroRuntime callee)
    {
        var instance = callee.RateAdaptation.Options.ProcessId;
        caller.Model.Get(caller.Registry.Resolve(Workflow)).RecordDownstreamCall(service, instance);
        Assert.True(callee.Admission.TryAdmit(callee.StartRequest(Workflow), caller.RateAdaptation.Options.ProcessId).IsAdmitted);
    }

    /// <summary>Closes the second, then steps each process in order (leaves first), recording its callees' answers.</summary>
    private void StepUp(params (CiceroRuntime Process, (string Service, CiceroRuntime Callee)[] Callees)[] order)
    {
        _clock.Advance(TimeSpan.FromSeconds(1));
        var now = _clock.GetTimestamp();
        foreach (var (process, callees) in order)
        {
            var id = process.RateAdaptation.Options.ProcessId;
            foreach (var group in callees.GroupBy(c => c.Service))
            {
                process.RateAdaptation.SetDownstreamInstances(group.Key, group.Select(c => c.Callee.RateAdaptation.Options.ProcessId));
            }

            foreach (var (service, callee) in callees)
            {
                var instance = new DownstreamInstance(service, callee.RateAdaptation.Options.ProcessId);
                process.RateAdaptation.RecordAnswer(instance, callee.RateAdaptation.GetAdmissionRatesFor(id), now);
            }

            process.RateAdaptation.Step(now);
        }
    }

    private sealed class FixedPolicy(double limit) : IRateLimitPolicy
    {
        public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now) => localRates.Fill(limit);
    }
}
