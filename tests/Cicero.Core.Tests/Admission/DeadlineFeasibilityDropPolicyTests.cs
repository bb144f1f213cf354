// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Tests.Admission;

public class DeadlineFeasibilityDropPolicyTests
{
    private const long Frequency = TimeSpan.TicksPerSecond;
    private readonly WorkflowRegistry _registry = new();

    [Theory]
    // δ = 2 s, elapsed = 0.5 s, L = 0.25 s → delay_max = 1.25 s; σ = 8/s → tolerable backlog 10.
    [InlineData(10.0, DropReason.None)]
    // Only the wait at σ makes it late: the rate refuses it, and says so.
    [InlineData(10.000001, DropReason.RateLimited)]
    [InlineData(0.0, DropReason.None)]
    public void Evaluate_BacklogAgainstTolerableQueueingDelay(double backlog, DropReason expected)
    {
        var now = 10 * Frequency;
        var context = RequestContext.Create("w", now - (Frequency / 2), TimeSpan.FromSeconds(2), default, default, default);
        var candidate = new AdmissionCandidate(context, _registry.Resolve("w"), now, Frequency, 0.25, backlog, 8, 0, 10);

        Assert.Equal(expected, DeadlineFeasibilityDropPolicy.Instance.Evaluate(candidate, now).Reason);
    }

    [Fact]
    public void Evaluate_SizedRequest_JudgedByWhatIsLeftOfItsOwnEstimate_CappedAtL()
    {
        var now = 10 * Frequency;
        RequestContext Sized(double service) =>
            RequestContext.Create("w", now, TimeSpan.FromSeconds(0.4), default, default, new ProgressDelta(service, 0));
        AdmissionCandidate Candidate(RequestContext context, double completion) =>
            new(context, _registry.Resolve("w"), now, Frequency, completion, 0, 8, 0, 10);

        // L says 2 s (the workflow's completions include queueing); a 50 ms request with 400 ms left fits.
        Assert.False(DeadlineFeasibilityDropPolicy.Instance.Evaluate(Candidate(Sized(0.05), 2), now).IsDrop);
        // A 500 ms request does not.
        Assert.True(DeadlineFeasibilityDropPolicy.Instance.Evaluate(Candidate(Sized(0.5), 2), now).IsDrop);
        // T sums parallel calls; capped at L, a request whose L is 0.3 s fits though its T is 0.5 s.
        Assert.False(DeadlineFeasibilityDropPolicy.Instance.Evaluate(Candidate(Sized(0.5), 0.3), now).IsDrop);
        // No L yet: only a passed deadline drops, whatever the request's size.
        Assert.False(DeadlineFeasibilityDropPolicy.Instance.Evaluate(Candidate(Sized(0.5), 0), now).IsDrop);
    }

    [Fact]
    public void Evaluate_NoDeadline_Admits()
    {
        var context = RequestContext.Create("w", 0, null, default, default, default);
        var candidate = new AdmissionCandidate(context, _registry.Resolve("w"), 100 * Frequency, Frequency, 50, 1e9, 1, 0, 10);

        Assert.False(DeadlineFeasibilityDropPolicy.Instance.Evaluate(candidate, 0).IsDrop);
    }

    [Fact]
    public void Evaluate_UnlimitedRate_DropsOnlyWhenAlreadyInfeasible()
    {
        var context = RequestContext.Create("w", 0, TimeSpan.FromSeconds(1), default, default, default);
        var feasible = new AdmissionCandidate(context, _registry.Resolve("w"), Frequency, Frequency, 0, 5, double.PositiveInfinity, 0, 10);
        var late = new AdmissionCandidate(context, _registry.Resolve("w"), 2 * Frequency, Frequency, 0, 0, double.PositiveInfinity, 0, 10);

        Assert.False(DeadlineFeasibilityDropPolicy.Instance.Evaluate(feasible, 0).IsDrop);
        Assert.True(DeadlineFeasibilityDropPolicy.Instance.Evaluate(late, 0).IsDrop);
    }

    [Fact]
    public void DropDecision_Drop_RequiresReason()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => DropDecision.Drop(DropReason.None));
        Assert.Equal(DropReason.QueueFull, DropDecision.Drop(DropReason.QueueFull).Reason);
    }
}
