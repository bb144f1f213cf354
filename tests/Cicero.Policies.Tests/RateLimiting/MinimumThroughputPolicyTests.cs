// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

public class MinimumThroughputPolicyTests
{
    [Fact]
    public void ComputeLocalRates_Congested_ReservationsFirstThenMaxMinOverExcess()
    {
        // Capacity 100, reserved a 20 + b 10, pool 70. Excess demands: a 30, b 0, c 60, d 10.
        // Max-min of 70: b 0, d 10, a 30, c the 30 left. Local = reservation + share.
        var policy = Create(100, ("a", 20), ("b", 10));
        var inputs = new RateInputsBuilder()
            .Workflow("a", current: 1, arrival: 50)
            .Workflow("b", current: 1, arrival: 5)
            .Workflow("c", current: 1, arrival: 60)
            .Workflow("d", current: 1, arrival: 10)
            .Build();

        var rates = RateInputsBuilder.Run(policy, inputs);

        Assert.Equal([50.0, 10.0, 30.0, 10.0], rates);
        Assert.Equal(100, rates.Sum());
    }

    [Fact]
    public void ComputeLocalRates_Uncongested_SpreadsUnusedPoolAsHeadroom()
    {
        // Pool 80; excess demands a 0, b 30; 50 unclaimed, so each gets 25 of headroom.
        var policy = Create(100, ("a", 20));
        var inputs = new RateInputsBuilder()
            .Workflow("a", current: 1, arrival: 10)
            .Workflow("b", current: 1, arrival: 30)
            .Build();

        Assert.Equal([45.0, 55.0], RateInputsBuilder.Run(policy, inputs));
    }

    [Fact]
    public void ComputeLocalRates_AbsentWorkflowsReservation_IsHeldBack()
    {
        // z reserves 40 but is not here: a may use only the 60 left.
        var policy = Create(100, ("z", 40));
        var inputs = new RateInputsBuilder().Workflow("a", current: 1, arrival: 100).Build();

        Assert.Equal([60.0], RateInputsBuilder.Run(policy, inputs));
    }

    [Fact]
    public void ComputeLocalRates_AdmittedAboveArrival_UsesLargerAsDemand()
    {
        // Capacity 30, no reservations: demands 25 (admitted) and 25 split the 30 equally.
        var policy = Create(30);
        var inputs = new RateInputsBuilder()
            .Workflow("a", current: 1, arrival: 5, admitted: 25)
            .Workflow("b", current: 1, arrival: 25)
            .Build();

        Assert.Equal([15.0, 15.0], RateInputsBuilder.Run(policy, inputs));
    }

    [Fact]
    public void ComputeLocalRates_DefaultCapacity_NoLimit()
    {
        var inputs = new RateInputsBuilder().Workflow("a", current: 1, arrival: 1e6).Build();

        Assert.Equal([double.PositiveInfinity], RateInputsBuilder.Run(new MinimumThroughputPolicy(), inputs));
    }

    [Fact]
    public void CreateFactory_Valid_NamedAndCreatesPolicy()
    {
        var factory = MinimumThroughputPolicy.CreateFactory(new MinimumThroughputOptions { Capacity = 10 });

        Assert.Equal(RateLimitPolicies.MinimumThroughput, factory.Name);
        Assert.IsType<MinimumThroughputPolicy>(factory.Create(new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromSeconds(1))));
    }

    [Fact]
    public void CreateFactory_ReservationsAboveCapacity_Throws()
    {
        var options = new MinimumThroughputOptions { Capacity = 50 };
        options.Reservations["a"] = 30;
        options.Reservations["b"] = 30;

        var error = Assert.Throws<ArgumentException>(() => MinimumThroughputPolicy.CreateFactory(options));

        Assert.Equal(nameof(MinimumThroughputOptions.Reservations), error.ParamName);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-10)]
    [InlineData(double.NaN)]
    public void CreateFactory_InvalidCapacity_Throws(double value)
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => MinimumThroughputPolicy.CreateFactory(new MinimumThroughputOptions { Capacity = value }));

        Assert.Equal(nameof(MinimumThroughputOptions.Capacity), error.ParamName);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(double.PositiveInfinity)]
    public void CreateFactory_InvalidReservation_Throws(double value)
    {
        var options = new MinimumThroughputOptions();
        options.Reservations["a"] = value;

        var error = Assert.Throws<ArgumentOutOfRangeException>(() => MinimumThroughputPolicy.CreateFactory(options));

        Assert.Equal(nameof(MinimumThroughputOptions.Reservations), error.ParamName);
    }

    private static MinimumThroughputPolicy Create(double capacity, params (string Workflow, double Rate)[] reservations)
    {
        var options = new MinimumThroughputOptions { Capacity = capacity };
        foreach (var (workflow, rate) in reservations)
        {
            options.Reservations[workflow] = rate;
        }

        return new MinimumThroughputPolicy(options);
    }
}
