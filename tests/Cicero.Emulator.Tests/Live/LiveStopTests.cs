// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Tests.Live;

/// <summary>A live run told to stop ends within seconds, not at its scenario's end, with every offered request accounted for.</summary>
[Collection(LiveRuns.Name)]
public sealed class LiveStopTests
{
    [Fact]
    public async Task RunAsync_Cancelled_EndsWithinFiveSecondsInterruptedAndConserving()
    {
        // 60 s of load that would keep the run busy for a minute; a slow backend so calls are in flight at the stop.
        var stages = """[{ "call": "be", "stages": [{ "use": "disk", "serviceTime": { "distribution": "constant", "meanMs": 300 } }] }]""";
        var scenario = TestScenarios.Tiny(duration: 60, warmUp: 0.5, stages: stages, workloads: """[{ "workflow": "W", "kind": "poisson", "ratePerSecond": 40 }]""");
        using var stop = new CancellationTokenSource();
        var run = new LiveTopologyRunner(scenario, scenario.Configurations![0]).RunAsync(stop.Token);
        await Task.Delay(TimeSpan.FromSeconds(3), TimeProvider.System);

        var asked = TimeProvider.System.GetTimestamp();
        await stop.CancelAsync();
        var result = await run.WaitAsync(TimeSpan.FromSeconds(30), TimeProvider.System);
        var took = TimeProvider.System.GetElapsedTime(asked);

        Assert.True(took < TimeSpan.FromSeconds(5), $"the run took {took.TotalSeconds:F1} s to stop");
        Assert.True(result.Interrupted);
        var w = result["W"];
        Assert.True(w.Offered > 20, $"offered {w.Offered}");
        Assert.Equal(w.Offered, w.Completed + w.Dropped + w.Failed);
        Assert.True(result.EndSeconds < 15, $"ended at {result.EndSeconds} s of a 60 s scenario");

        // Histograms, not samples: the live runner keeps no per-request latency.
        Assert.Empty(w.LatenciesMs);
        Assert.Equal(w.Completed, w.LatencyMs.Count);
    }
}
