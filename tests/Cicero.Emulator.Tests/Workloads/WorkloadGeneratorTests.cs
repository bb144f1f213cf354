// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Workloads;

namespace Cicero.Emulator.Tests.Workloads;

public sealed class WorkloadGeneratorTests
{
    [Fact]
    public void NextArrivalAfter_TenantStartsThenDoubles_RatesFollowTheSteps()
    {
        // The brief's example: a tenant starts at t = 50 s and doubles at t = 60 s.
        var spec = new WorkloadSpec
        {
            Workflow = "B",
            RatePerSecond = 200,
            StartSeconds = 50,
            Steps = [new WorkloadStepSpec { AtSeconds = 60, RatePerSecond = 400 }],
        };
        var arrivals = Arrivals(WorkloadGenerator.Create(spec, 80, seed: 3));

        Assert.True(arrivals[0] >= 50);
        var first = arrivals.Count(t => t < 60);
        var second = arrivals.Count(t => t >= 60 && t < 70);
        var third = arrivals.Count(t => t >= 70);
        Assert.InRange(first, 1800, 2200);
        Assert.InRange(second, 3700, 4300);
        Assert.InRange(third, 3700, 4300);
        Assert.True(arrivals[^1] < 80);
    }

    [Fact]
    public void NextArrivalAfter_OnOff_NothingDuringOffPeriods()
    {
        var spec = new WorkloadSpec { Workflow = "G", Kind = WorkloadKinds.OnOff, RatePerSecond = 100, OnSeconds = 1, OffSeconds = 3, StartSeconds = 2 };
        var arrivals = Arrivals(WorkloadGenerator.Create(spec, 20, seed: 5));

        Assert.All(arrivals, t => Assert.True((t - 2) % 4 < 1, $"arrival at {t} falls in an off period"));
        Assert.InRange(arrivals.Count, 400, 500 + 100);
    }

    [Fact]
    public void NextArrivalAfter_SameSeed_SameArrivals()
    {
        var spec = new WorkloadSpec { Workflow = "A", RatePerSecond = 50 };

        Assert.Equal(Arrivals(WorkloadGenerator.Create(spec, 10, 9)), Arrivals(WorkloadGenerator.Create(spec, 10, 9)));
        Assert.NotEqual(Arrivals(WorkloadGenerator.Create(spec, 10, 9)), Arrivals(WorkloadGenerator.Create(spec, 10, 10)));
    }

    [Fact]
    public void Create_ClosedLoop_ClientCountFollowsSteps()
    {
        var spec = new WorkloadSpec
        {
            Workflow = "B",
            Kind = WorkloadKinds.ClosedLoop,
            Clients = 30,
            StartSeconds = 40,
            Steps = [new WorkloadStepSpec { AtSeconds = 60, Clients = 60 }],
        };
        var generator = WorkloadGenerator.Create(spec, 100, 1);

        Assert.True(generator.IsClosedLoop);
        Assert.Equal(0, generator.Schedule.ValueAt(39.9));
        Assert.Equal(30, generator.Schedule.ValueAt(40));
        Assert.Equal(60, generator.Schedule.ValueAt(60));
        Assert.Equal(0, generator.Schedule.ValueAt(100));
        Assert.Equal(40, generator.Schedule.NextChangeAfter(0));
        Assert.Equal(60, generator.Schedule.NextChangeAfter(40));
        Assert.Equal(100, generator.Schedule.NextChangeAfter(60));
        Assert.Throws<InvalidOperationException>(() => generator.NextArrivalAfter(0));
    }

    [Theory]
    [InlineData(DistributionKinds.Exponential)]
    [InlineData(DistributionKinds.Constant)]
    [InlineData(DistributionKinds.LogNormal)]
    public void SampleSeconds_EachKind_HasTheRequestedMean(string kind)
    {
        var distribution = TimeDistribution.From(new DistributionSpec { Distribution = kind, MeanMs = 20, Cv = 0.5 });
        var random = new Random(1);
        var sum = 0.0;
        for (var i = 0; i < 100_000; i++)
        {
            sum += distribution.SampleSeconds(random);
        }

        Assert.InRange(sum / 100_000, 0.0196, 0.0204);
    }

    private static List<double> Arrivals(WorkloadGenerator generator)
    {
        var list = new List<double>();
        for (var t = generator.NextArrivalAfter(0); double.IsFinite(t); t = generator.NextArrivalAfter(t))
        {
            list.Add(t);
        }

        return list;
    }
}
