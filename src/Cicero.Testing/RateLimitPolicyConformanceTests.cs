// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Testing;

/// <summary>
/// What every <see cref="IRateLimitPolicy"/> must do, whatever its rule: write a rate (non-negative, or +∞) for every
/// workflow on random inputs, behave the same on the same inputs (it reads no clock and no hidden state besides its
/// own), cope with no workflows or resources, with workflows appearing up to the registry's bound, and with the
/// overflow workflow; and come from a factory with the expected name. Each rate-limit policy's tests inherit this.
/// </summary>
/// <remarks>
/// Inputs are generated from a fixed seed: 2 to 12 workflows, 0 to 3 resources, loads up to twice a resource's
/// capacity, downstream rates that are sometimes +∞ and sometimes 0.
/// </remarks>
public abstract class RateLimitPolicyConformanceTests
{
    /// <summary>Gets the name the factory must report.</summary>
    protected abstract string ExpectedName { get; }

    /// <summary>A random sequence of intervals: every workflow gets a valid rate every time.</summary>
    [Fact]
    public void ComputeLocalRates_RandomIntervals_WritesAValidRateForEveryWorkflow()
    {
        var registry = new WorkflowRegistry();
        var policy = CreatePolicy(registry);
        var random = new Random(17);
        for (var interval = 0; interval < 300; interval++)
        {
            var inputs = RandomInputs(registry, random, workflows: random.Next(2, 13));
            var rates = Run(policy, inputs, interval);
            for (var i = 0; i < rates.Length; i++)
            {
                Assert.False(double.IsNaN(rates[i]) || rates[i] < 0, $"Interval {interval}: workflow '{inputs.Workflows[i].Workflow.Id}' got {rates[i]}.");
            }
        }
    }

    /// <summary>Two policies fed the same intervals answer the same: no clock, no unseeded randomness.</summary>
    [Fact]
    public void ComputeLocalRates_SameIntervals_SameRates()
    {
        var first = new WorkflowRegistry();
        var second = new WorkflowRegistry();
        var a = CreatePolicy(first);
        var b = CreatePolicy(second);
        var randomA = new Random(23);
        var randomB = new Random(23);
        for (var interval = 0; interval < 100; interval++)
        {
            var count = randomA.Next(2, 13);
            Assert.Equal(count, randomB.Next(2, 13));
            Assert.Equal(Run(a, RandomInputs(first, randomA, count), interval), Run(b, RandomInputs(second, randomB, count), interval));
        }
    }

    /// <summary>An interval with no workflows and no resources (a process that has seen no traffic yet).</summary>
    [Fact]
    public void ComputeLocalRates_NoWorkflowsNoResources_DoesNotThrow()
    {
        var registry = new WorkflowRegistry();
        var policy = CreatePolicy(registry);

        policy.ComputeLocalRates(LocalRateInputs.Create(0.1, [], [], []), Span<double>.Empty, 0);
    }

    /// <summary>Workflows keep appearing until the registry is full and the rest fold into the overflow workflow.</summary>
    [Fact]
    public void ComputeLocalRates_WorkflowsUpToTheRegistryBound_AllGetRates()
    {
        var registry = new WorkflowRegistry(maxWorkflows: 16);
        var policy = CreatePolicy(registry);
        var random = new Random(29);
        for (var seen = 1; seen <= 40; seen++)
        {
            for (var i = 0; i < seen; i++)
            {
                registry.Resolve(new WorkflowId($"tenant-{i}"));
            }

            var inputs = RandomInputs(registry, random, workflows: registry.Count);
            var rates = Run(policy, inputs, seen);
            Assert.Equal(registry.Count, rates.Length);
            Assert.DoesNotContain(rates, r => double.IsNaN(r) || r < 0);
        }

        Assert.True(registry.OverflowCount > 0);
    }

    /// <summary>The factory reports the expected name and creates a working policy.</summary>
    [Fact]
    public void Factory_HasTheExpectedName_AndCreatesAPolicy()
    {
        var factory = CreateFactory();
        var registry = new WorkflowRegistry();

        Assert.Equal(ExpectedName, factory.Name);
        var policy = factory.Create(new RateLimitPolicyContext(registry, TimeSpan.FromMilliseconds(100)));
        Assert.NotNull(policy);
        Assert.Single(Run(policy, RandomInputs(registry, new Random(3), workflows: 1), 0));
    }

    /// <summary>Creates the factory under test.</summary>
    /// <returns>The factory.</returns>
    protected abstract RateLimitPolicyFactory CreateFactory();

    /// <summary>Creates a policy for a process with <paramref name="registry"/>, through the factory.</summary>
    /// <param name="registry">The process's registry.</param>
    /// <returns>The policy.</returns>
    protected IRateLimitPolicy CreatePolicy(WorkflowRegistry registry) =>
        CreateFactory().Create(new RateLimitPolicyContext(registry, TimeSpan.FromMilliseconds(100)));

    /// <summary>Random inputs over the first <paramref name="workflows"/> slots of the registry (tracking new ones as needed).</summary>
    /// <param name="registry">The registry.</param>
    /// <param name="random">The seeded source.</param>
    /// <param name="workflows">How many workflows.</param>
    /// <returns>One interval's inputs.</returns>
    protected static LocalRateInputs RandomInputs(WorkflowRegistry registry, Random random, int workflows)
    {
        ArgumentNullException.ThrowIfNull(registry);
        ArgumentNullException.ThrowIfNull(random);
        for (var tries = 0; registry.Count < Math.Min(workflows, registry.SlotCapacity) && tries < workflows; tries++)
        {
            registry.Resolve(new WorkflowId($"w{registry.Count}-{tries}"));
        }

        var count = Math.Min(workflows, registry.Count);
        var resources = new ResourceRateInputs[random.Next(0, 4)];
        var loads = new double[count * resources.Length];
        for (var r = 0; r < resources.Length; r++)
        {
            var capacity = random.Next(1, 65);
            var total = 0.0;
            for (var w = 0; w < count; w++)
            {
                var load = random.NextDouble() * 2 * capacity / count;
                loads[(w * resources.Length) + r] = load;
                total += load;
            }

            resources[r] = new ResourceRateInputs($"r{r}", capacity, total);
        }

        var rows = new WorkflowRateInputs[count];
        for (var w = 0; w < count; w++)
        {
            var current = random.Next(4) == 0 ? double.PositiveInfinity : random.NextDouble() * 1000;
            var downstream = random.Next(3) switch { 0 => double.PositiveInfinity, 1 => 0, _ => random.NextDouble() * 1000 };
            var arrival = random.NextDouble() * 1500;
            rows[w] = new WorkflowRateInputs(registry[w], current, downstream, arrival, Math.Min(arrival, random.NextDouble() * 1000));
        }

        return LocalRateInputs.Create(0.1, rows, resources, loads);
    }

    private static double[] Run(IRateLimitPolicy policy, LocalRateInputs inputs, long now)
    {
        var rates = new double[inputs.Workflows.Length];
        Array.Fill(rates, double.PositiveInfinity);
        policy.ComputeLocalRates(inputs, rates, now);
        return rates;
    }
}
