// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Scenarios.Generation;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>
/// Issue 17: the rate-control guarantee on generated topologies (a fixed set of seeds here; the sweep over thousands
/// is <c>StorageTopology check</c>, docs/reliability.md), and the generator's own promises.
/// </summary>
public sealed class RateControlGuaranteeTests(ITestOutputHelper output)
{
    [Theory]
    [InlineData(3, GeneratedLoadKinds.Steady)]
    [InlineData(9, GeneratedLoadKinds.Steady)]
    [InlineData(14, GeneratedLoadKinds.Steady)]
    [InlineData(1, GeneratedLoadKinds.Bursty)]
    public void GeneratedTopology_RateControlNeverHurtsAHealthySystem(int seed, string kind)
    {
        var report = RateControlGuarantee.Check(ScenarioGenerator.Generate(seed, kind));

        output.WriteLine($"{report.Description}\nworst margin {report.WorstMargin:F3}: {report.WorstCheck}");
        Assert.True(report.Passed, string.Join("\n", report.Violations));
    }

    // Seeds the first 2,000-seed sweep (2026-11-26, docs/reliability.md §8) failed under the first safe defaults: 872
    // on the σ bound (a workflow offering ~10/s ramped past 4x its demand by the absolute probe β), 29 on p99.
    // 52 and 324 (bursty) failed every sweep on p99 until overload was judged on a 2 s average of demand (0011's fourth
    // amendment): a burst's short average crossed the capacity of a few-permit tier and the cut queued requests at the
    // entry. The kind is the seed's own (as `check --from N` draws it), so these are the sweep's scenarios.
    [Theory]
    [InlineData(29)]
    [InlineData(872)]
    [InlineData(52)]
    [InlineData(324)]
    public void GeneratedTopology_PreviouslyFailingSeed_Holds(int seed)
    {
        var report = RateControlGuarantee.Check(ScenarioGenerator.Generate(seed, loadKind: null));

        output.WriteLine($"{report.Description}\nworst margin {report.WorstMargin:F3}: {report.WorstCheck}");
        Assert.True(report.Passed, string.Join("\n", report.Violations));
    }

    // With an aggressor the guarantee holds on few generated topologies (42 of the fourth sweep's 668, docs/reliability.md
    // §8, against a ceiling measured there); these are two where it holds, so a change that loses it there shows here.
    [Theory]
    [InlineData(396)]
    [InlineData(897)]
    public void GeneratedTopology_WithAnAggressor_HoldsWhereTheSweepPassed(int seed)
    {
        var generated = ScenarioGenerator.Generate(seed, loadKind: null);
        Assert.NotNull(generated.Aggressor);

        var report = RateControlGuarantee.Check(generated);

        output.WriteLine($"{report.Description}\nworst margin {report.WorstMargin:F3}: {report.WorstCheck}");
        Assert.True(report.Passed, string.Join("\n", report.Violations));
    }

    // The opt-in held-rate regrowth limit (docs/decisions/0011, seventh amendment): on these seeds the aggressor, released
    // as soon as the bottleneck drains, floods it again under the defaults; held near its cut, its compliant tenants keep
    // their guarantee.
    [Theory]
    [InlineData(574)]
    [InlineData(1956)]
    public void HeldRateRegrowth_ProtectsWhereTheDefaultsDoNot(int seed)
    {
        var (defaults, held) = WithAndWithout(seed, c => c.RateHeldRegrowth = true);

        Assert.False(defaults.Passed);
        Assert.True(held.Passed, string.Join("\n", held.Violations));
    }

    // The opt-in overload hold (docs/decisions/0011, eighth amendment): on these seeds the defaults ramp the aggressor
    // back into the bottleneck once its queue drains and keep it full; held at its share of 70% of the bottleneck beside
    // the others' demand, its compliant tenants keep their guarantee under FIFO and DRR alike.
    [Theory]
    [InlineData(97)]
    [InlineData(143)]
    public void OverloadHold_ProtectsWhereTheDefaultsDoNot(int seed)
    {
        var (defaults, held) = WithAndWithout(seed, c => c.RateOverloadHold = 0.7);

        Assert.False(defaults.Passed);
        Assert.True(held.Passed, string.Join("\n", held.Violations));
    }

    // The goodput limit (the ninth amendment): on these seeds the entry's σ′ runs far above what the deep bottleneck serves
    // (seed 141: an 11-call sequential fan-out read as an amplification of about 2), so without it most of the
    // aggressor's losses time out inside; with it they are refused at the entry, and under DRR the whole clause holds.
    [Theory]
    [InlineData(141)]
    [InlineData(608)]
    public void GoodputLimit_RefusesAtTheEntryWhatWouldFailInside(int seed)
    {
        var (defaults, without) = WithAndWithout(seed, c => c.RateGoodputLimit = false);

        Assert.DoesNotContain(defaults.Violations, v => v.StartsWith("rc+drr/", StringComparison.Ordinal));
        Assert.Contains(without.Violations, v => v.StartsWith("rc+drr/aggressor", StringComparison.Ordinal) && v.Contains("refused at the entry", StringComparison.Ordinal));
    }

    // The overload confidence (the seventh amendment): on these healthy seeds the 2 s demand average at a few-permit tier
    // crosses the capacity on noise alone, and a cut on it (the plain average, as before) costs requests or tail; judged
    // against its standard error, it is not cut.
    [Theory]
    [InlineData(582)]
    [InlineData(828)]
    public void OverloadConfidence_SparesAHealthySystemThePlainAverageCuts(int seed)
    {
        var (defaults, plain) = WithAndWithout(seed, c => c.RateOverloadConfidence = 0);

        Assert.True(defaults.Passed, string.Join("\n", defaults.Violations));
        Assert.False(plain.Passed);
    }

    /// <summary>The guarantee on a seed under the defaults, and with <paramref name="change"/> applied to its rate-controlled configurations.</summary>
    private (GuaranteeReport Defaults, GuaranteeReport Changed) WithAndWithout(int seed, Action<ConfigurationSpec> change)
    {
        var defaults = RateControlGuarantee.Check(ScenarioGenerator.Generate(seed, loadKind: null));
        var generated = ScenarioGenerator.Generate(seed, loadKind: null);
        foreach (var configuration in generated.Scenario.Configurations!.Where(c => c.RateControl))
        {
            change(configuration);
        }

        var changed = RateControlGuarantee.Check(generated);
        output.WriteLine($"{defaults.Description}\ndefaults: {defaults.WorstMargin:F3} {defaults.WorstCheck}\nchanged: {changed.WorstMargin:F3} {changed.WorstCheck}");
        return (defaults, changed);
    }

    // The ceiling of the aggressor half (docs/reliability.md §8): seed 38's compliant tenants keep their p99 beside an
    // aggressor perfectly limited to 70% of the bottleneck, and lose it (p99 more than twice theirs alone) at 100%, the
    // fill that max-min fair shares of the whole capacity aim at.
    [Fact]
    public void LimitedAggressor_AtSeventyPercentProtects_FillingTheBottleneckDoesNot()
    {
        var generated = ScenarioGenerator.Generate(38, loadKind: null);

        var seventy = RateControlGuarantee.CheckLimitedAggressor(generated, 0.7);
        var full = RateControlGuarantee.CheckLimitedAggressor(generated, 1);

        output.WriteLine($"{seventy.Description}\n70%: {seventy.WorstMargin:F3} {seventy.WorstCheck}\n100%: {full.WorstMargin:F3} {full.WorstCheck}");
        Assert.True(seventy.Passed, string.Join("\n", seventy.Violations));
        Assert.Contains(full.Violations, v => v.Contains("p99", StringComparison.Ordinal));
        Assert.Equal(4, full.Runs);
    }

    // The fair-share ceiling (docs/reliability.md §8): held to an even split of the bottleneck, seed 28's aggressor leaves
    // its compliant tenants their p99 under FIFO and DRR; limited to what fills the bottleneck, it does not.
    [Fact]
    public void AggressorAtFairShare_Protects_WhereFillingTheBottleneckDoesNot()
    {
        var generated = ScenarioGenerator.Generate(28, loadKind: null);

        var fair = RateControlGuarantee.CheckAggressorAtFairShare(generated);
        var full = RateControlGuarantee.CheckLimitedAggressor(generated, 1);

        output.WriteLine($"{fair.Description}\nfair share: {fair.WorstMargin:F3} {fair.WorstCheck}\n100%: {full.WorstMargin:F3} {full.WorstCheck}");
        Assert.True(fair.Passed, string.Join("\n", fair.Violations));
        Assert.Equal(4, fair.Runs);
        var expected = generated.Scenario.Workloads!.First(w => w.Workflow == generated.Aggressor).RatePerSecond / generated.AggressorFactor;
        Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"Aggressor limited to {expected:F1}/s, its fair share"), fair.Description, StringComparison.Ordinal);
        Assert.False(full.Passed);
    }

    [Fact]
    public void LimitedAggressor_NeedsAnAggressorAndAUtilizationInRange()
    {
        var steady = ScenarioGenerator.Generate(3, GeneratedLoadKinds.Steady);
        var aggressor = ScenarioGenerator.Generate(38, loadKind: null);

        Assert.Contains("no aggressor", Assert.Throws<ArgumentException>(() => RateControlGuarantee.CheckLimitedAggressor(steady, 0.8)).Message, StringComparison.Ordinal);
        Assert.Contains("no aggressor", Assert.Throws<ArgumentException>(() => RateControlGuarantee.CheckAggressorAtFairShare(steady)).Message, StringComparison.Ordinal);
        Assert.Throws<ArgumentOutOfRangeException>(() => RateControlGuarantee.CheckLimitedAggressor(aggressor, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => RateControlGuarantee.CheckLimitedAggressor(aggressor, 1.5));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    [InlineData(6)]
    [InlineData(4, GeneratedLoadKinds.Bursty)]
    public void Generate_SameSeedSameScenario_ValidAndWithinItsRanges(int seed, string? kind = null)
    {
        var generated = ScenarioGenerator.Generate(seed, kind);
        var again = ScenarioGenerator.Generate(seed, kind);

        Assert.Equal(ScenarioLoader.ToJson(generated.Scenario), ScenarioLoader.ToJson(again.Scenario));
        Assert.Empty(ScenarioLoader.Validate(generated.Scenario));
        var services = generated.Scenario.Services!;
        Assert.InRange(services.Count, 2, 8);
        Assert.All(services, s => Assert.InRange(s.Instances, 1, 20));
        Assert.All(services, s => Assert.InRange(s.Resources!.Single(r => r.Name == "work").Capacity, 1, 16));
        Assert.InRange(generated.Compliant.Count, 1, 5);
        Assert.InRange(generated.Load, 0.2, 0.95);

        // Seed 4 once drew a 7-deep chain with fan-out 10 whose idle latency exceeded the 5 s deadline: completions were a
        // lottery at the deadline (the baseline's p99 sat on it) and rate control "failed" by chance.
        Assert.True(generated.DeadlineMs >= ScenarioGenerator.DeadlineOverLatency * generated.UnloadedLatencyMs, $"deadline {generated.DeadlineMs} ms for an unloaded latency of {generated.UnloadedLatencyMs} ms");
        Assert.True(generated.DeadlineMs >= ScenarioGenerator.MinimumDeadlineMs);
        Assert.All(generated.Scenario.Configurations!, c => Assert.Equal(generated.DeadlineMs, c.DeadlineMs));
        if (generated.Aggressor is not null)
        {
            Assert.InRange(generated.AggressorFactor, 2, 10);
            Assert.DoesNotContain(generated.WithoutAggressor().Workloads!, w => w.Workflow == generated.Aggressor);
        }
    }

    [Theory]
    [InlineData(-5)]
    [InlineData(int.MaxValue)]
    public void Generate_SeedThatWouldRepeatAnother_IsRefused(int seed)
    {
        var error = Assert.Throws<ArgumentOutOfRangeException>(() => ScenarioGenerator.Generate(seed));

        Assert.Equal("seed", error.ParamName);
        Assert.Contains("would repeat the scenario of another", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Generate_SmallestAndLargestSeeds_DifferFromEachOther()
    {
        // The descriptions past "Generated from seed N" name the graph, the load and the deadline.
        static string Shape(int seed)
        {
            var description = ScenarioGenerator.Generate(seed).Scenario.Description!;
            return description[description.IndexOf('(', StringComparison.Ordinal)..];
        }

        Assert.NotEqual(Shape(0), Shape(ScenarioGenerator.MaxSeed));
        Assert.Equal(Shape(5), Shape(5));
    }

    [Fact]
    public void Generate_UnknownKind_SaysWhichKindsExist()
    {
        var error = Assert.Throws<ArgumentException>(() => ScenarioGenerator.Generate(1, "storm"));

        Assert.Contains("steady, aggressor, bursty", error.Message, StringComparison.Ordinal);
    }
}
