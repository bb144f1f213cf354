// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;

namespace Cicero.Emulator.Tests.Live;

/// <summary>
/// A scenario the live runner cannot finish is refused, with the configuration's path, before its first configuration
/// runs: Cake's SLO controller (<c>cake-slo</c>) exists only in the simulator.
/// </summary>
public sealed class LiveValidationTests
{
    [Fact]
    public void Validate_CakeConsolidation_NamesTheCakeConfigurationAndTheSimulatedRunner()
    {
        var scenario = ScenarioLoader.LoadEmbedded("cake-consolidation");
        var cake = scenario.Configurations!.ToList().FindIndex(c => c.RateLimitPolicy == "cake-slo");

        var error = Assert.Single(LiveTopologyRunner.Validate(scenario));

        Assert.Equal($"configurations[{cake}].rateLimitPolicy", error.Path);
        Assert.Contains("--runner simulated", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_EveryOtherEmbeddedScenario_CanRunLive()
    {
        foreach (var name in ScenarioLoader.EmbeddedScenarioNames.Where(n => n != "cake-consolidation"))
        {
            var scenario = ScenarioLoader.LoadEmbedded(name);
            var expected = (scenario.Configurations ?? []).Any(c => c.RateLimitPolicy == "cake-slo");

            Assert.Equal(expected, LiveTopologyRunner.Validate(scenario).Count > 0);
        }
    }

    [Fact]
    public async Task RunAllAsync_CakeConsolidation_ThrowsBeforeAnyConfigurationRuns()
    {
        var scenario = ScenarioLoader.LoadEmbedded("cake-consolidation");

        // The baseline configuration comes first and would run for the scenario's whole duration if it were started.
        using var cancel = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        var ex = await Assert.ThrowsAsync<ScenarioValidationException>(() => LiveTopologyRunner.RunAllAsync(scenario, cancellationToken: cancel.Token));

        Assert.Contains("cake-slo", ex.Message, StringComparison.Ordinal);
        Assert.False(cancel.IsCancellationRequested);
    }

    [Fact]
    public void Constructor_CakeConfiguration_IsRefusedWithItsPath()
    {
        var scenario = ScenarioLoader.LoadEmbedded("cake-consolidation");
        var cake = scenario.Configurations!.Single(c => c.RateLimitPolicy == "cake-slo");

        var ex = Assert.Throws<ScenarioValidationException>(() => new LiveTopologyRunner(scenario, cake));

        Assert.Contains("configuration.rateLimitPolicy", ex.Message, StringComparison.Ordinal);
    }
}
