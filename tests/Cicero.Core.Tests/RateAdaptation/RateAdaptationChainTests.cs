// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.Time;

namespace Cicero.Tests.RateAdaptation;

/// <summary>
/// A three-tier chain in memory: entry → middle (α = 2, calls spread evenly) → a leaf service of two instances,
/// each able to serve C requests per second. Traffic flows through the real admission controllers and models.
/// </summary>
public class RateAdaptationChainTests
{
    private const double C = 200;
    private const string Workflow = "tenant";
    private static readonly TimeSpan Interval = TimeSpan.FromMilliseconds(100);

    private readonly VirtualTimeProvider _clock = new();
    private readonly InMemoryDownstreamRateSource _source = new();

    [Theory]
    [InlineData(0.0, 0.5)]
    [InlineData(0.5, 0.75)]
    [InlineData(1.0, 1.0)]
    public void EntryRate_SettlesAtMTimesCOverAlpha_ThenFollowsHalvingAsQuantilePredicts(double q, double afterHalving)
    {
        var chain = new Chain(this, q);
        var entryRates = new List<double>();
        _clock.CreateTimer(_ => entryRates.Add(chain.Entry.RateAdaptation.GetAnnouncedRate(Workflow)), null, Interval, Interval);

        _clock.Advance(TimeSpan.FromSeconds(3));

        // 2 instances × C / α = 2C / 2 = C, reached within 10 intervals and held from then on.
        var settledAt = entryRates.FindIndex(r => Math.Abs(r - C) <= 0.05 * C);
        Assert.InRange(settledAt, 0, 10);
        Assert.All(entryRates.Skip(settledAt), r => Assert.InRange(r, 0.95 * C, 1.05 * C));
        Assert.Equal(C, chain.Middle.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(DownstreamStatus.Fresh, chain.Middle.RateAdaptation.GetDownstreamStatus("leaf"));

        // One leaf instance loses half its capacity: implied rates become {C, C/2}, so σ = quantile(q) of them.
        chain.Leaf2Policy.Capacity = C / 2;
        entryRates.Clear();
        _clock.Advance(TimeSpan.FromSeconds(3));

        var expected = afterHalving * C;
        var followedAt = entryRates.FindIndex(r => Math.Abs(r - expected) <= 0.05 * expected);
        Assert.InRange(followedAt, 0, 10);
        Assert.All(entryRates.Skip(followedAt), r => Assert.InRange(r, 0.95 * expected, 1.05 * expected));
        Assert.True(chain.Admitted > 0);
    }

    [Fact]
    public void DownstreamStopsAnswering_RateIsHeldThenFallsBackToLocalPolicy_NeverZero()
    {
        const double LocalFallback = 1000;
        var entry = Process("fe", new FixedPolicy(LocalFallback), 0.5);
        var leaf = Process("leaf-1", new CapacityPolicy(C), 0.5);
        var leafAddress = new DownstreamInstance("leaf", "leaf-1");
        _source.Register(leafAddress, leaf.RateAdaptation);
        entry.RateAdaptation.SetDownstreamInstances("leaf", ["leaf-1"]);
        StartTraffic(entry, 3 * C, admitted => Call(entry, leaf, "leaf", "leaf-1"));

        _clock.Advance(TimeSpan.FromSeconds(2));
        Assert.Equal(C, entry.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(C, entry.Admission.GetRate(Workflow), 6);

        _source.SetAvailable(leafAddress, false);
        _clock.Advance(TimeSpan.FromMilliseconds(500));
        Assert.Equal(C, entry.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(DownstreamStatus.Holding, entry.RateAdaptation.GetDownstreamStatus("leaf"));

        _clock.Advance(TimeSpan.FromMilliseconds(700));
        Assert.Equal(LocalFallback, entry.RateAdaptation.GetAnnouncedRate(Workflow));
        Assert.Equal(DownstreamStatus.Expired, entry.RateAdaptation.GetDownstreamStatus("leaf"));

        _source.SetAvailable(leafAddress, true);
        _clock.Advance(TimeSpan.FromMilliseconds(300));
        Assert.Equal(C, entry.RateAdaptation.GetAnnouncedRate(Workflow), 6);
        Assert.Equal(DownstreamStatus.Fresh, entry.RateAdaptation.GetDownstreamStatus("leaf"));
    }

    [Fact]
    public async Task RunOnceAsync_HungDownstream_TimesOutAndStillSteps()
    {
        var options = new CiceroOptions();
        options.RateAdaptation.ProcessId = "fe";
        var hung = new HungSource();
        using var entry = new CiceroRuntime(options, _clock, rateSource: hung);
        entry.RateAdaptation.SetDownstreamInstances("leaf", ["a", "b"]);

        var run = entry.RateAdaptation.RunOnceAsync();
        Assert.False(run.IsCompleted);
        _clock.Advance(options.RateAdaptation.QueryTimeout);
        await run.WaitAsync(TimeSpan.FromSeconds(30));

        Assert.Equal(1, entry.RateAdaptation.Steps);
        Assert.Equal(2, hung.Calls);
        Assert.True(hung.SawCancellation);
        Assert.Equal(DownstreamStatus.Expired, entry.RateAdaptation.GetDownstreamStatus("leaf"));
    }

    [Fact]
    public void Step_PolicyReturnsNaN_ThrowsWithPolicyAndWorkflow()
    {
        using var process = new CiceroRuntime(null, _clock, new FixedPolicy(double.NaN));
        process.Admission.TryAdmit(process.StartRequest(Workflow));

        var error = Assert.Throws<InvalidOperationException>(() => process.RateAdaptation.Step(_clock.GetTimestamp()));

        Assert.Contains("FixedPolicy", error.Message, StringComparison.Ordinal);
        Assert.Contains("rates must be non-negative", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void GetAdmissionRatesFor_SplitsRateByCallerDemand()
    {
        using var downstream = new CiceroRuntime(null, _clock, new CapacityPolicy(100));
        for (var i = 0; i < 150; i++)
        {
            downstream.Admission.TryAdmit(downstream.StartRequest(Workflow), "fe-1");
        }

        for (var i = 0; i < 50; i++)
        {
            downstream.Admission.TryAdmit(downstream.StartRequest(Workflow), "fe-2");
        }

        _clock.Advance(TimeSpan.FromSeconds(1));
        downstream.RateAdaptation.Step(_clock.GetTimestamp());

        Assert.Equal(75, RateFor(downstream.RateAdaptation.GetAdmissionRatesFor("fe-1")), 9);
        Assert.Equal(25, RateFor(downstream.RateAdaptation.GetAdmissionRatesFor("fe-2")), 9);
        Assert.Equal(100, downstream.RateAdaptation.GetAnnouncedRate(Workflow));
    }

    private static double RateFor(DownstreamRateAnswer answer) => Assert.Single(answer.Rates, r => r.Workflow.Value == Workflow).Rate;


    private CiceroRuntime Process(string id, IRateLimitPolicy policy, double q)
    {
        var options = new CiceroOptions();
        options.RateAdaptation.ProcessId = id;
        options.RateAdaptation.Quantile = q;
        options.RateAdaptation.Interval = Interval;
        options.Admission.RunContinuationsAsynchronously = false;
        var runtime = new CiceroRuntime(options, _clock, policy, rateSource: _source);
        runtime.RateAdaptation.Start();
        return runtime;
    }

    /// <summary>Offers requests at a fixed rate to <paramref name="entry"/> and runs <paramref name="onAdmitted"/> for each admitted one.</summary>
    private void StartTraffic(CiceroRuntime entry, double offeredRate, Action<RequestContext> onAdmitted)
    {
        var gap = TimeSpan.FromSeconds(1 / offeredRate);
        void Arrive(object? _)
        {
            var context = entry.StartRequest(Workflow);
            if (entry.Admission.TryAdmit(context).IsAdmitted)
            {
                onAdmitted(context);
            }

            _clock.Schedule(gap, Arrive, null);
        }

        _clock.Schedule(gap, Arrive, null);
    }

    private static bool Call(CiceroRuntime caller, CiceroRuntime callee, string service, string instance)
    {
        caller.Model.Get(caller.Registry.Resolve(Workflow)).RecordDownstreamCall(service, instance);
        return callee.Admission.TryAdmit(callee.StartRequest(Workflow), caller.RateAdaptation.Options.ProcessId).IsAdmitted;
    }

    private sealed class Chain
    {
        public Chain(RateAdaptationChainTests test, double q)
        {
            Entry = test.Process("fe", PassThroughRateLimitPolicy.Instance, q);
            Middle = test.Process("mid", PassThroughRateLimitPolicy.Instance, q);
            Leaf1Policy = new CapacityPolicy(C);
            Leaf2Policy = new CapacityPolicy(C);
            var leaf1 = test.Process("leaf-1", Leaf1Policy, q);
            var leaf2 = test.Process("leaf-2", Leaf2Policy, q);
            test._source.Register(new DownstreamInstance("mid", "mid-0"), Middle.RateAdaptation);
            test._source.Register(new DownstreamInstance("leaf", "leaf-1"), leaf1.RateAdaptation);
            test._source.Register(new DownstreamInstance("leaf", "leaf-2"), leaf2.RateAdaptation);
            Entry.RateAdaptation.SetDownstreamInstances("mid", ["mid-0"]);
            Middle.RateAdaptation.SetDownstreamInstances("leaf", ["leaf-1", "leaf-2"]);

            // Offer 3C at the entry; each admitted request makes one middle call, which makes α = 2 leaf calls, one per instance.
            test.StartTraffic(Entry, 3 * C, _ =>
            {
                Admitted++;
                if (Call(Entry, Middle, "mid", "mid-0"))
                {
                    Call(Middle, leaf1, "leaf", "leaf-1");
                    Call(Middle, leaf2, "leaf", "leaf-2");
                }
            });
        }

        public CiceroRuntime Entry { get; }

        public CiceroRuntime Middle { get; }

        public CapacityPolicy Leaf1Policy { get; }

        public CapacityPolicy Leaf2Policy { get; }

        public int Admitted { get; private set; }
    }

    private sealed class HungSource : IDownstreamRateSource
    {
        public int Calls { get; private set; }

        public bool SawCancellation { get; private set; }

        public ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance instance, string caller, CancellationToken cancellationToken)
        {
            Calls++;
            cancellationToken.Register(() => SawCancellation = true);
            return new ValueTask<DownstreamRateAnswer>(new TaskCompletionSource<DownstreamRateAnswer>().Task);
        }
    }
}
