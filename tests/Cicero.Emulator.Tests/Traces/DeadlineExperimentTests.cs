// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Traces;

public sealed class DeadlineExperimentTests(ITestOutputHelper output)
{
    /// <summary>The speed-ups of the Meta block experiment; the last is the highest load.</summary>
    internal static readonly double[] MetaBlockLoadLevels = [2, 8, 16, 24];

    [Fact]
    public void Run_MetaBlockSample_LstfRcBeatsBaselineByFarAndEdfAtTheHighestLoad()
    {
        var plan = MetaBlockPlan(repeats: 4);

        var result = DeadlineExperiment.Run(plan, new DeadlineExperimentOptions { LoadLevels = MetaBlockLoadLevels });

        output.WriteLine($"{plan.RequestCount} requests; isolated mean {result.IsolatedMeanMs:0.0} ms, max {result.IsolatedMaxMs:0.0} ms; k = {result.K}");
        output.WriteLine(result.ToTable());
        Assert.Equal(MetaBlockLoadLevels.Length * 4, result.Rows.Count);
        Assert.All(result.Rows, r => Assert.Equal(plan.RequestCount, r.Offered));
        Assert.All(result.Rows, r => Assert.Equal(r.Offered, r.Completed + r.Dropped + r.TimedOut));
        var top = MetaBlockLoadLevels[^1];
        var baseline = result[top, "Baseline"];
        var edf = result[top, "EDF+RC"];
        var lstf = result[top, "LSTF+RC"];
        Assert.True(lstf.LndP99 < baseline.LndP99 / 10, $"LSTF+RC p99 {lstf.LndP99:0.00} vs baseline {baseline.LndP99:0.00}");
        Assert.True(edf.LndP99 < baseline.LndP99 / 10, $"EDF+RC p99 {edf.LndP99:0.00} vs baseline {baseline.LndP99:0.00}");
        Assert.True(baseline.LateFraction > 0.5, $"the baseline is overloaded at the top level: {baseline.LateFraction:P0} late");

        Assert.True(lstf.LndP99 <= edf.LndP99, $"LSTF+RC p99 {lstf.LndP99:0.000} vs EDF+RC {edf.LndP99:0.000}");
        Assert.True(lstf.LndP99 < 1.25, $"LSTF+RC p99 {lstf.LndP99:0.000}: expired and infeasible sub-tasks are refused at the resources, so few finish late");
    }

    [Fact]
    public void Run_IsolatedLoad_EveryRequestMeetsItsDeadline()
    {
        var plan = TraceReplayPlanner.Create(SimulatedReplayTests.Generate(200, seed: 11));

        var result = DeadlineExperiment.Run(plan, new DeadlineExperimentOptions { LoadLevels = [1], Configurations = [DeadlineExperiment.DefaultConfigurations()[0]] });

        var row = Assert.Single(result.Rows);
        Assert.Equal(200, row.Completed);
        Assert.True(row.LndP99 <= 1, $"p99 LND {row.LndP99} on a lightly loaded topology with deadline = 4 x isolated");
        Assert.True(row.LndMean >= 0.25 - 1e-9, $"mean LND {row.LndMean}: a request cannot beat its time alone");
    }

    /// <summary>
    /// The shared Meta block sample (read in place), repeated back to back <paramref name="repeats"/> times so the run is
    /// long enough for rate control to act, on the default topology with one disk per block server, one compute permit per
    /// partition server and one cpu per Auth instance (so that modest speed-ups saturate it), and no thread or connection
    /// pools.
    /// </summary>
    internal static TraceReplayPlan MetaBlockPlan(int repeats)
    {
        var importer = new MetaBlockTraceImporter();
        var plan = TraceReplayPlanner.Create(TraceRepetition.BackToBack(() => TraceImport.ReadFile(importer, TraceTestFiles.MetaBlock), repeats));
        return DeadlineExperiment.UseSingleServerResources(plan);
    }
}
