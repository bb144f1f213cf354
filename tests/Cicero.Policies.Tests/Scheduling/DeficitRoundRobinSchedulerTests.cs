// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class DeficitRoundRobinSchedulerTests : SubtaskSchedulerConformanceTests
{
    [Fact]
    public void TryDequeue_Weights123_EqualCosts_ServedCountsWithinOnePercent()
    {
        var scheduler = Create(("a", 1), ("b", 2), ("c", 3));
        foreach (var workflow in new[] { "a", "b", "c" })
        {
            for (var i = 0; i < 6000; i++)
            {
                scheduler.Enqueue(Ticket(Context(workflow), cost: 1));
            }
        }

        var served = Serve(scheduler, 6000);

        Assert.InRange(served["a"], 990, 1010);
        Assert.InRange(served["b"], 1980, 2020);
        Assert.InRange(served["c"], 2970, 3030);
    }

    [Fact]
    public void TryDequeue_UnequalCosts_ServedCostFollowsWeights()
    {
        // Equal weights; a's sub-tasks cost 1, b's cost 3: b is served a third as often, so both get equal cost.
        var scheduler = Create(("a", 1), ("b", 1));
        for (var i = 0; i < 3000; i++)
        {
            scheduler.Enqueue(Ticket(Context("a"), cost: 1));
            scheduler.Enqueue(Ticket(Context("b"), cost: 3));
        }

        var cost = new Dictionary<string, double> { ["a"] = 0, ["b"] = 0 };
        for (var i = 0; i < 2000; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            cost[ticket.Workflow.Id.Value] += ticket.Cost;
        }

        Assert.InRange(cost["a"] / cost["b"], 0.98, 1.02);
    }

    [Fact]
    public void TryDequeue_IdleWorkflow_AccumulatesNoCredit()
    {
        var scheduler = Create(("a", 1), ("b", 1));
        scheduler.Enqueue(Ticket(Context("a"), cost: 1));
        Assert.True(scheduler.TryDequeue(0, out _));

        // a is idle while b is served 100 times.
        for (var i = 0; i < 100; i++)
        {
            scheduler.Enqueue(Ticket(Context("b"), cost: 1));
        }

        Assert.Equal(100, Serve(scheduler, 100)["b"]);

        // a comes back with a backlog alongside b: it alternates with b instead of bursting on saved credit.
        for (var i = 0; i < 50; i++)
        {
            scheduler.Enqueue(Ticket(Context("a"), cost: 1));
            scheduler.Enqueue(Ticket(Context("b"), cost: 1));
        }

        var order = new List<string>();
        for (var i = 0; i < 10; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            order.Add(ticket.Workflow.Id.Value);
        }

        Assert.Equal(5, order.Count(w => w == "a"));
        Assert.DoesNotContain("aa", string.Concat(order.Select(w => w)), StringComparison.Ordinal);
    }

    [Fact]
    public void TryDequeue_MeasuredCosts_ComeFromCompletedServiceTimes()
    {
        // Default cost source: the local model. a's sub-tasks took 1 ms, b's 4 ms: with equal weights b runs a quarter as often.
        var scheduler = (DeficitRoundRobinScheduler)DeficitRoundRobinScheduler.CreateFactory().Create(
            new SubtaskSchedulerContext("disk", 1, TimeSpan.TicksPerSecond, Registry));
        var a = Registry.Resolve("a");
        var b = Registry.Resolve("b");
        scheduler.OnCompleted(new SubtaskCompletion(a, Context("a"), 1, 0, TimeSpan.FromMilliseconds(1)));
        scheduler.OnCompleted(new SubtaskCompletion(b, Context("b"), 1, 0, TimeSpan.FromMilliseconds(4)));
        for (var i = 0; i < 2000; i++)
        {
            scheduler.Enqueue(Ticket(Context("a")));
            scheduler.Enqueue(Ticket(Context("b")));
        }

        var served = new Dictionary<string, int> { ["a"] = 0, ["b"] = 0 };
        for (var i = 0; i < 1000; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            served[ticket.Workflow.Id.Value]++;
        }

        Assert.InRange((double)served["a"] / served["b"], 3.9, 4.1);
    }

    [Fact]
    public void TryDequeue_RefusedSubtasks_AreNoMeasurement()
    {
        // Both took 2 ms; then 50 of a's sub-tasks were refused at the head (reported as taking no time). Averaged in,
        // a would look nearly free and take every turn; it still costs 2 ms, so the two alternate.
        var scheduler = DeficitRoundRobinScheduler.CreateFactory().Create(new SubtaskSchedulerContext("disk", 1, TimeSpan.TicksPerSecond, Registry));
        var a = Registry.Resolve("a");
        var b = Registry.Resolve("b");
        scheduler.OnCompleted(new SubtaskCompletion(a, Context("a"), 1, 0, TimeSpan.FromMilliseconds(2)));
        scheduler.OnCompleted(new SubtaskCompletion(b, Context("b"), 1, 0, TimeSpan.FromMilliseconds(2)));
        for (var i = 0; i < 50; i++)
        {
            scheduler.OnCompleted(new SubtaskCompletion(a, Context("a"), 1, 0, TimeSpan.Zero));
        }

        for (var i = 0; i < 10; i++)
        {
            scheduler.Enqueue(Ticket(Context("a")));
            scheduler.Enqueue(Ticket(Context("b")));
        }

        var served = Serve(scheduler, 10);
        Assert.Equal(5, served["a"]);
        Assert.Equal(5, served["b"]);
    }

    [Fact]
    public void TryDequeue_LoneFlowWithTinyWeight_GetsItsCreditAtOnce()
    {
        var scheduler = Create(("slow", 1e-9));
        scheduler.Enqueue(Ticket(Context("slow"), cost: 1));

        Assert.True(scheduler.TryDequeue(0, out var ticket));
        Assert.Equal("slow", ticket.Workflow.Id.Value);
    }

    [Fact]
    public void TryDequeue_SeveralFlowsWithTinyWeights_GetTheirRoundsAtOnce_InWeightOrder()
    {
        // A billion rounds of credit before either head is covered: skipped at once, and the flow with twice the
        // weight is covered first, as the rounds one by one would have it.
        var scheduler = Create(("slow", 1e-9), ("less-slow", 2e-9));
        scheduler.Enqueue(Ticket(Context("slow"), cost: 1));
        scheduler.Enqueue(Ticket(Context("less-slow"), cost: 1));

        Assert.True(scheduler.TryDequeue(0, out var first));
        Assert.True(scheduler.TryDequeue(0, out var second));
        Assert.Equal("less-slow", first.Workflow.Id.Value);
        Assert.Equal("slow", second.Workflow.Id.Value);
    }

    [Fact]
    public void CreateFactory_InvalidWeight_FailsWithName()
    {
        var options = new DeficitRoundRobinOptions();
        options.Weights["tenant-x"] = 0;

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => DeficitRoundRobinScheduler.CreateFactory(options));
        Assert.Contains("tenant-x", error.Message, StringComparison.Ordinal);
    }

    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => DeficitRoundRobinScheduler.CreateFactory().Create(context);

    private ISubtaskScheduler Create(params (string Workflow, double Weight)[] weights)
    {
        var options = new DeficitRoundRobinOptions { CostSource = SubtaskCostSource.Declared };
        foreach (var (workflow, weight) in weights)
        {
            options.Weights[workflow] = weight;
        }

        return DeficitRoundRobinScheduler.CreateFactory(options).Create(new SubtaskSchedulerContext("disk", 1, TimeSpan.TicksPerSecond, Registry));
    }

    private static Dictionary<string, int> Serve(ISubtaskScheduler scheduler, int count)
    {
        var served = new Dictionary<string, int>();
        for (var i = 0; i < count; i++)
        {
            Assert.True(scheduler.TryDequeue(0, out var ticket));
            served[ticket.Workflow.Id.Value] = served.GetValueOrDefault(ticket.Workflow.Id.Value) + 1;
        }

        return served;
    }
}
