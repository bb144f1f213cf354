// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Tests.Scenarios;

public sealed class CubicRateVariantsTests
{
    [Theory]
    [InlineData("published", CubicRateVariant.Published)]
    [InlineData("binding-limit", CubicRateVariant.BindingLimit)]
    [InlineData("Delay-Guarded", CubicRateVariant.DelayGuarded)]
    public void Parse_EachName_GivesItsOwnVariant(string name, CubicRateVariant expected) =>
        Assert.Equal(expected, CubicRateVariants.Parse(name));

    [Fact]
    public void Parse_UnknownScenarioVariant_NamesThePathAndTheChoices()
    {
        var configurations = """[{ "name": "c3", "rateControl": false, "scheduler": "fifo", "c3RateVariant": "fast" }]""";

        var error = Assert.Throws<ScenarioValidationException>(() => ScenarioLoader.Parse(TestScenarios.Json(configurations: configurations)));

        Assert.Contains(error.Errors, e => e.ToString() == "configurations[0].c3RateVariant: must be 'published', 'binding-limit' or 'delay-guarded', was 'fast'");
    }
}
