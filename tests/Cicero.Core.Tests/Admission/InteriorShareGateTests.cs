// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Model;
using Cicero.RateAdaptation;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Tests.Admission;

/// <summary>
/// Decision 0022: an interior hop is refused only above the workflow's local fair share while a local resource it loads
/// is congested; otherwise it is counted. Entries admit against σ whatever the interior semantics.
/// </summary>
public class InteriorShareGateTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();

    public InteriorShareGateTests() => _clock.Advance(TimeSpan.FromHours(1));

    [Theory]
    [InlineData(3, 100, double.PositiveInfinity, 1.0, 40, true)] // congested, over its share, the local rate binds: held
    [InlineData(0, 100, double.PositiveInfinity, 1.0, 40, false)] // no standing queue: counted
    [InlineData(3, 30, double.PositiveInfinity, 1.0, 40, false)] // sends less than its share: counted
    [InlineData(3, 100, 35, 1.0, 40, false)] // σ′ below the local rate binds: the entry's limit, counted here
    [InlineData(3, 100, double.PositiveInfinity, 0.0, 40, false)] // no load on the congested resource: counted
    public void Interior_hops_are_held_only_at_a_local_bottleneck_above_the_local_share(
        int standingIntervals, double arrival, double downstream, double load, double local, bool held)
    {
        var inputs = LocalRateInputs.Create(
            0.1,
            [new WorkflowRateInputs(_registry.Resolve("aggressor"), 50, downstream, arrival, 50)],
            [new ResourceRateInputs("disk", 2, 3) { StandingQueueIntervals = standingIntervals, TotalDemand = 3 }],
            [load],
            [load]);

        Assert.Equal(held, LocalBottleneckShare.Holds(inputs, 0, local));
    }

    [Fact]
    public async Task LocalFairShare_admits_interior_hops_against_sigma_while_armed_and_counts_them_otherwise()
    {
        var model = new LocalModel(_registry, _clock);
        using var admission = new AdmissionController(_registry, null, model, _clock);
        var slot = _registry.Resolve("aggressor");
        admission.Configure("aggressor", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));

        // Disarmed: every interior hop is counted, though σ here would refuse all but one.
        for (var i = 0; i < 5; i++)
        {
            Assert.True((await Hop(admission, InteriorAdmission.LocalFairShare)).IsAdmitted);
        }

        // Armed (σ here is the workflow's local share): held to σ, so the bucket's one token passes and the next is refused.
        admission.InteriorShares.Arm(slot.Index, true);
        Assert.True((await Hop(admission, InteriorAdmission.LocalFairShare)).IsAdmitted);
        Assert.Equal(DropReason.RateLimited, (await Hop(admission, InteriorAdmission.LocalFairShare)).Reason);
        Assert.True((await Hop(admission, InteriorAdmission.Count)).IsAdmitted);
        Assert.Equal(DropReason.RateLimited, (await Hop(admission, InteriorAdmission.Full)).Reason);

        // Disarmed again: counted.
        admission.InteriorShares.Arm(slot.Index, false);
        Assert.True((await Hop(admission, InteriorAdmission.LocalFairShare)).IsAdmitted);

        // Every hop's arrival is recorded, the refused ones as not admitted: 10 arrivals, 8 admissions over 100 ms.
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        model.CloseInterval();
        var workflow = model.Get(slot);
        Assert.Equal(100, workflow.ArrivalRate, 6);
        Assert.Equal(80, workflow.AdmittedRate, 6);
    }

    [Fact]
    public async Task An_entry_is_admitted_against_sigma_whatever_the_interior_semantics()
    {
        using var admission = new AdmissionController(_registry, timeProvider: _clock);
        admission.Configure("tenant", new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        foreach (var interior in Enum.GetValues<InteriorAdmission>())
        {
            _clock.Advance(TimeSpan.FromHours(1));
            var context = RequestContext.Start("tenant", _clock);
            Assert.True((await admission.AdmitHopAsync(context, null, isEntry: true, interior, queue: false, null, default)).IsAdmitted);
            Assert.Equal(DropReason.RateLimited, (await admission.AdmitHopAsync(context, null, isEntry: true, interior, queue: false, null, default)).Reason);
        }
    }

    private ValueTask<AdmissionResult> Hop(AdmissionController admission, InteriorAdmission interior) =>
        admission.AdmitHopAsync(RequestContext.Start("aggressor", _clock), "fe-0", isEntry: false, interior, queue: false, null, default);
}
