// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using System.Globalization;
using Cicero.QuickStart;

var quantile = new Option<double>("--quantile", "-q")
{
    Description = "Quantile knob q in [0, 1] used to aggregate the leaf instances' rates.",
    DefaultValueFactory = _ => 0.5,
};
var capacity = new Option<double>("--capacity", "-c")
{
    Description = "Requests per second each leaf instance can serve.",
    DefaultValueFactory = _ => 200,
};
var seconds = new Option<double>("--seconds", "-s")
{
    Description = "Virtual seconds to simulate; leaf-2 loses half its capacity halfway through.",
    DefaultValueFactory = _ => 6,
};
var root = new RootCommand(
    "Cicero quick start: a three-tier chain (fe -> mid -> two leaf instances) in deterministic virtual time, " +
    "showing admission rates bubbling up from the leaves to the entry point.")
{
    quantile,
    capacity,
    seconds,
};
root.SetAction(parse =>
{
    var settings = new QuickStartSettings(parse.GetValue(quantile), parse.GetValue(capacity), parse.GetValue(seconds));
    if (settings.Validate() is { } error)
    {
        Console.Error.WriteLine($"error: {error}");
        return 2;
    }

    var result = new QuickStartSimulation(settings).Run(Console.Out);
    Console.WriteLine(string.Create(
        CultureInfo.InvariantCulture,
        $"Entry rate settled at {result.SettledRate:F1} req/s (expected {result.ExpectedSettled:F1}); after the halving {result.FinalRate:F1} req/s (expected {result.ExpectedFinal:F1} for q = {settings.Quantile})."));
    return result.WithinFivePercent ? 0 : 1;
});

return root.Parse(args).Invoke();
