// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Policies.Dropping;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Dropping;

public sealed class QueueLengthDropPolicyTests : IDisposable
{
    private readonly VirtualTimeProvider _clock = new();
    private readonly WorkflowRegistry _registry = new();
    private AdmissionController? _admission;

    public void Dispose() => _admission?.Dispose();

    [Fact]
    public async Task Evaluate_QueueReachesThreshold_DropsWithQueueFullUntilItDrains()
    {
        var admission = Create(maxQueueLength: 2, rate: 10, queueLimit: 100);

        // The burst token admits the first at once; the next two wait (queue lengths 0 and 1 on arrival).
        Assert.True((await Admit()).IsAdmitted);
        var second = Admit();
        var third = Admit();
        var fourth = Admit();

        Assert.False(second.IsCompleted);
        Assert.False(third.IsCompleted);
        Assert.True(fourth.IsCompleted);
        Assert.Equal(DropReason.QueueFull, (await fourth).Reason);
        Assert.Equal(2, admission.GetQueueLength("tenant"));

        // One token per 100 ms: the second leaves the queue, which makes room for one more.
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.True((await second).IsAdmitted);
        var fifth = Admit();
        Assert.False(fifth.IsCompleted);

        _clock.Advance(TimeSpan.FromMilliseconds(200));
        Assert.True((await third).IsAdmitted);
        Assert.True((await fifth).IsAdmitted);
    }

    [Fact]
    public void Evaluate_EmptyQueueWithoutToken_LeavesRejectionToLimiter()
    {
        var admission = Create(maxQueueLength: 1, rate: 10, queueLimit: 100);
        Assert.True(admission.TryAdmit(Context()).IsAdmitted);

        // The policy never drops at an empty queue; TryAdmit cannot wait, so the limiter rejects it.
        Assert.Equal(DropReason.RateLimited, admission.TryAdmit(Context()).Reason);
    }

    [Fact]
    public async Task Evaluate_LimiterBoundBelowThreshold_LimiterRejectsFirst()
    {
        var admission = Create(maxQueueLength: 5, rate: 10, queueLimit: 1);
        Assert.True(admission.TryAdmit(Context()).IsAdmitted);
        var queued = Admit();

        var rejected = Admit();

        Assert.False(queued.IsCompleted);
        Assert.Equal(DropReason.RateLimited, (await rejected).Reason);
        _clock.Advance(TimeSpan.FromMilliseconds(100));
        Assert.True((await queued).IsAdmitted);
    }

    [Fact]
    public void CreateFactory_Options_NamedPolicyWithThreshold()
    {
        var factory = QueueLengthDropPolicy.CreateFactory(new QueueLengthDropOptions { MaxQueueLength = 7 });

        var policy = Assert.IsType<QueueLengthDropPolicy>(factory.Create(_registry));

        Assert.Equal(DropPolicies.QueueLength, factory.Name);
        Assert.Equal(7, policy.MaxQueueLength);
        Assert.Equal(32, new QueueLengthDropPolicy().MaxQueueLength);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    public void CreateFactory_ThresholdBelowOne_Throws(int value)
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(
            () => QueueLengthDropPolicy.CreateFactory(new QueueLengthDropOptions { MaxQueueLength = value }));

        Assert.Equal(nameof(QueueLengthDropOptions.MaxQueueLength), error.ParamName);
    }

    private AdmissionController Create(int maxQueueLength, double rate, int queueLimit)
    {
        var policy = QueueLengthDropPolicy.CreateFactory(new QueueLengthDropOptions { MaxQueueLength = maxQueueLength }).Create(_registry);
        _admission = new AdmissionController(_registry, policy, null, _clock, new AdmissionOptions { RunContinuationsAsynchronously = false });
        _admission.Configure("tenant", new RateLimiterProperties(rate, Burst: 1, QueueLimit: queueLimit));
        return _admission;
    }

    private RequestContext Context() => RequestContext.Start("tenant", _clock);

    private ValueTask<AdmissionResult> Admit() => _admission!.AdmitAsync(Context());
}
