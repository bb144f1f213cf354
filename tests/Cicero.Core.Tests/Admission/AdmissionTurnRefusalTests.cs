// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Time;
using Cicero.Workflows;
using static Cicero.Tests.Shared.ValueTaskAssert;

namespace Cicero.Tests.Admission;

/// <summary>The drop policy consulted again when a queued request's turn comes at its workflow's rate limiter.</summary>
public class AdmissionTurnRefusalTests
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void QueuedRequestWhoseWaitMadeItMiss_IsRefusedAtItsTurn_AndTheNextWaiterGetsItsToken()
    {
        // σ = 4/s, one token: the first request takes it; a 300 ms request queues, its predicted wait 250 ms fits.
        using var admission = Create();
        admission.Configure("tenant", new RateLimiterProperties(4, Burst: 1, QueueLimit: 10));
        Assert.True(admission.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
        var tight = admission.AdmitAsync(RequestContext.Start("tenant", _clock, TimeSpan.FromMilliseconds(300))).AsTask();
        var loose = admission.AdmitAsync(RequestContext.Start("tenant", _clock, TimeSpan.FromSeconds(5))).AsTask();
        Assert.False(tight.IsCompleted);
        Assert.False(loose.IsCompleted);

        // σ halves while they wait: the next token comes at 500 ms, past the tight one's deadline.
        admission.SetRate("tenant", 2);
        _clock.Advance(TimeSpan.FromMilliseconds(499));
        Assert.False(tight.IsCompleted);
        _clock.Advance(TimeSpan.FromMilliseconds(1));

        // At its turn the wait it had made it miss: refused as the rate's refusal, and the token it did not take admits
        // the next waiter at once rather than 500 ms later.
        Assert.Equal(DropReason.RateLimited, Completed(tight).Reason);
        Assert.True(loose.IsCompletedSuccessfully);
        Assert.True(Completed(loose).IsAdmitted);
        Assert.Equal(0, admission.GetQueueLength("tenant"));
    }

    [Fact]
    public void QueuedRequestWithoutDeadline_OrUnderTheNeverPolicy_IsReleasedAtItsTurn()
    {
        using var admission = Create();
        using var never = new AdmissionController(_registry, NeverDrop.Instance, null, _clock, new AdmissionOptions { RunContinuationsAsynchronously = false });
        var released = new List<Task<AdmissionResult>>();
        foreach (var controller in new[] { admission, never })
        {
            controller.Configure("tenant", new RateLimiterProperties(4, Burst: 1, QueueLimit: 10));
            Assert.True(controller.TryAdmit(RequestContext.Start("tenant", _clock)).IsAdmitted);
        }

        released.Add(admission.AdmitAsync(RequestContext.Start("tenant", _clock)).AsTask());
        released.Add(never.AdmitAsync(RequestContext.Start("tenant", _clock, TimeSpan.FromMilliseconds(10))).AsTask());
        _clock.Advance(TimeSpan.FromMilliseconds(250));

        Assert.All(released, t => Assert.True(Completed(t).IsAdmitted));
    }

    private AdmissionController Create() =>
        new(_registry, null, null, _clock, new AdmissionOptions { RunContinuationsAsynchronously = false });

    private sealed class NeverDrop : IDropPolicy
    {
        public static NeverDrop Instance { get; } = new();

        public DropDecision Evaluate(in AdmissionCandidate candidate, long now) => DropDecision.Admit;
    }
}
