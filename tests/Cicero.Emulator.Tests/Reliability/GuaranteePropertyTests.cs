// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios.Generation;

namespace Cicero.Emulator.Tests.Reliability;

/// <summary>The guarantee's arithmetic on hand-made outcomes (docs/reliability.md §8): each clause holds at its limit and fails just past it.</summary>
public sealed class GuaranteePropertyTests
{
    private static Dictionary<string, WorkflowOutcome> Run(params (string Workflow, WorkflowOutcome Outcome)[] workflows) =>
        workflows.ToDictionary(w => w.Workflow, w => w.Outcome, StringComparer.Ordinal);

    private static IReadOnlyDictionary<string, WorkflowOutcome>[] Runs(params IReadOnlyDictionary<string, WorkflowOutcome>[] runs) => runs;

    private static GuaranteeClause Clause(IReadOnlyList<GuaranteeClause> clauses, string name) => clauses.Single(c => c.Name == name);

    // H1: summed over two run seeds the reference completes 1,000, so the slack is max(2, 5) = 5: 995 holds, 994 fails.
    [Theory]
    [InlineData(495, true)]
    [InlineData(494, false)]
    public void H1_CompletionsSummedOverRunSeeds_WithinHalfAPercent(long secondRunCompleted, bool holds)
    {
        var reference = Runs(Run(("t1", new WorkflowOutcome(600, 500, 0, 10, 500))), Run(("t1", new WorkflowOutcome(600, 500, 0, 10, 500))));
        var mine = Runs(Run(("t1", new WorkflowOutcome(600, 500, 0, 10, 500))), Run(("t1", new WorkflowOutcome(600, secondRunCompleted, 0, 10, 500))));

        var h1 = Clause(GuaranteeProperty.Healthy("rc", mine, reference), "H1");

        Assert.Equal(holds, h1.Passed);
        Assert.Equal(500.0 + secondRunCompleted, h1.Margin * 995, 6);
    }

    // H1's absolute slack: 100 completions leave 2, not 0.5.
    [Fact]
    public void H1_FewCompletions_SlackOfTwo()
    {
        var reference = Runs(Run(("t1", new WorkflowOutcome(100, 100, 0, 10, 100))));

        Assert.True(Clause(GuaranteeProperty.Healthy("rc", Runs(Run(("t1", new WorkflowOutcome(100, 98, 0, 10, 98)))), reference), "H1").Passed);
        Assert.False(Clause(GuaranteeProperty.Healthy("rc", Runs(Run(("t1", new WorkflowOutcome(100, 97, 0, 10, 97)))), reference), "H1").Passed);
    }

    // H2: the median of three paired ratios p99(R) ÷ (p99(ref) + 2): 48/(38+2) = 1.2, then 1.3 and 2.0 or 1.0.
    // One bad run seed out of three does not fail it; two do.
    [Theory]
    [InlineData(new[] { 48.0, 26.0, 40.0 }, true)] // ratios 1.2, 1.3, 1.0: median 1.2
    [InlineData(new[] { 48.0, 26.0, 80.0 }, false)] // ratios 1.2, 1.3, 2.0: median 1.3
    public void H2_MedianOverRunSeeds_OfP99RatioWithTwoMilliseconds(double[] mineP99, bool holds)
    {
        double[] theirs = [38, 18, 38];
        var reference = Runs([.. theirs.Select(p => Run(("t1", new WorkflowOutcome(200, 200, 0, p, 200))))]);
        var mine = Runs([.. mineP99.Select(p => Run(("t1", new WorkflowOutcome(200, 200, 0, p, 200))))]);

        var h2 = Clause(GuaranteeProperty.Healthy("rc+drr", mine, reference), "H2");

        Assert.Equal(holds, h2.Passed);
        Assert.Equal("rc+drr", h2.Configuration);
    }

    // H2 judges only workflows with at least 100 samples: a 99-sample tail is not read.
    [Fact]
    public void H2_FewSamples_NotJudged()
    {
        var reference = Runs(Run(("t1", new WorkflowOutcome(99, 99, 0, 10, 99))));
        var mine = Runs(Run(("t1", new WorkflowOutcome(99, 99, 0, 500, 99))));

        var h2 = Clause(GuaranteeProperty.Healthy("rc", mine, reference), "H2");

        Assert.True(h2.Passed);
        Assert.Equal(double.PositiveInfinity, h2.Margin);
    }

    // An aggressor topology: t1 offers 1,000 over the run seeds; the static limits are at fills 0.8 and 1.0.
    private static IReadOnlyList<GuaranteeClause> Aggressor(WorkflowOutcome compliant, WorkflowOutcome aggressor, long t1UnderFull = 1000, double t1P99At08 = 20, double t1P99AtFull = 100)
    {
        var at08 = new StaticLimitRuns(0.8, Runs(Run(("t1", new WorkflowOutcome(1000, 1000, 0, t1P99At08, 1000)), ("agg", new WorkflowOutcome(500, 500, 0, 30, 500)))));
        var full = new StaticLimitRuns(1.0, Runs(Run(("t1", new WorkflowOutcome(1000, t1UnderFull, 0, t1P99AtFull, t1UnderFull)), ("agg", new WorkflowOutcome(800, 800, 0, 30, 800)))));
        return GuaranteeProperty.Aggressor("rc", "agg", ["t1"], Runs(Run(("t1", compliant), ("agg", aggressor))), [at08, full]);
    }

    private static readonly WorkflowOutcome GoodAggressor = new(4000, 600, 3400, 40, 600);

    [Theory]
    [InlineData(990, true)] // 99% of what it offers
    [InlineData(989, false)]
    public void A1_CompliantCompletes99PercentOfItsOffer(long completed, bool holds)
    {
        Assert.Equal(holds, Clause(Aggressor(new WorkflowOutcome(1000, completed, 0, 20, completed), GoodAggressor), "A1").Passed);
    }

    // When the full-fill static limit completes less than 99% (here 900), 899 is enough.
    [Theory]
    [InlineData(899, true)]
    [InlineData(898, false)]
    public void A1_OrWhatTheFullFillStaticLimitCompletesLessOne(long completed, bool holds)
    {
        Assert.Equal(holds, Clause(Aggressor(new WorkflowOutcome(1000, completed, 0, 20, completed), GoodAggressor, t1UnderFull: 900), "A1").Passed);
    }

    // A2: the aggressor's goodput under R (600) is first matched by the full fill (800; the 0.8 fill gives 500), whose t1
    // p99 is 100 ms: the limit is 1.25 × 100 + 2 = 127 ms.
    [Theory]
    [InlineData(127, true)]
    [InlineData(128, false)]
    public void A2_AgainstTheLeastStaticLimitWithAtLeastRsGoodput(double p99, bool holds)
    {
        var a2 = Clause(Aggressor(new WorkflowOutcome(1000, 1000, 0, p99, 1000), GoodAggressor), "A2");

        Assert.Equal(holds, a2.Passed);
        Assert.Contains("fill 1.00", a2.Detail, StringComparison.Ordinal);
    }

    // With goodput 500 the 0.8 fill matches it, and its p99 of 20 ms makes the limit 27 ms.
    [Theory]
    [InlineData(27, true)]
    [InlineData(28, false)]
    public void A2_LessGoodput_TheTighterStaticLimit(double p99, bool holds)
    {
        var a2 = Clause(Aggressor(new WorkflowOutcome(1000, 1000, 0, p99, 1000), new WorkflowOutcome(4000, 500, 3500, 40, 500)), "A2");

        Assert.Equal(holds, a2.Passed);
        Assert.Contains("fill 0.80", a2.Detail, StringComparison.Ordinal);
    }

    // A3's goodput half: at least 50% of the full fill's 800.
    [Theory]
    [InlineData(400, true)]
    [InlineData(399, false)]
    public void A3_AggressorKeepsHalfItsFullFillGoodput(long goodput, bool holds)
    {
        Assert.Equal(holds, Clause(Aggressor(new WorkflowOutcome(1000, 1000, 0, 20, 1000), new WorkflowOutcome(4000, goodput, 4000 - goodput, 40, goodput)), "A3").Passed);
    }

    // A3's refusal half: of 3,400 lost, at least 2,720 refused at the entry.
    [Theory]
    [InlineData(2720, true)]
    [InlineData(2719, false)]
    public void A3_EightyPercentOfLossesRefusedAtTheEntry(long refused, bool holds)
    {
        var a3 = Clause(Aggressor(new WorkflowOutcome(1000, 1000, 0, 20, 1000), new WorkflowOutcome(4000, 600, refused, 40, 600)), "A3");

        Assert.Equal(holds, a3.Passed);
        Assert.Contains("refused at the entry", a3.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public void Median_OddAndEvenCounts()
    {
        Assert.Equal(2, GuaranteeProperty.Median([3, 1, 2]));
        Assert.Equal(2.5, GuaranteeProperty.Median([4, 1, 2, 3]));
    }

    [Fact]
    public void Tally_LastLine_CountsEachClausePerConfiguration()
    {
        static GuaranteeReport Report(string category, params GuaranteeClause[] clauses) => new()
        {
            LoadKind = category,
            Category = category,
            Description = string.Empty,
            Clauses = clauses,
            AlwaysViolations = [],
            RunSeeds = [1],
        };

        GuaranteeReport[] reports =
        [
            Report(GuaranteeReport.Healthy, new("H1", "rc", 1, ""), new("H2", "rc", 1, ""), new("H1", "rc+drr", 1, ""), new("H2", "rc+drr", 1, "")),
            Report(GuaranteeReport.Healthy, new("H1", "rc", 1, ""), new("H2", "rc", 0.9, ""), new("H1", "rc+drr", 1, ""), new("H2", "rc+drr", 1, "")),
            Report(GuaranteeReport.Aggressor, new("A1", "rc", 1, ""), new("A2", "rc", 0.5, ""), new("A3", "rc", 2, ""), new("A1", "rc+drr", 0.1, ""), new("A2", "rc+drr", 1, ""), new("A3", "rc+drr", 1, "")),
            Report(GuaranteeReport.Neither),
        ];

        Assert.Equal("healthy H1+H2 1/2; aggressor A1 rc 1/1 rc+drr 0/1; A2 rc 0/1 rc+drr 1/1; A3 rc 1/1 rc+drr 1/1", GuaranteeTally.Line(reports));
    }
}
