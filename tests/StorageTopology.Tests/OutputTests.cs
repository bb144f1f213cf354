// SPDX-License-Identifier: Apache-2.0

using System.CommandLine;
using Cicero.Emulator.Live;
using Cicero.Emulator.Traces;
using Spectre.Console;

namespace Cicero.StorageTopology.Tests;

/// <summary>Plain output when piped, friendly messages, one meaning per option name, safe defaults (issue 20).</summary>
[Collection(CliRuns.Name)]
public sealed class OutputTests
{
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(120);

    [Fact]
    public async Task PipedRun_HasNoEscapeCodes()
    {
        using var folder = new TempFolder();
        var scenario = folder.Write("tiny.json", Scenarios.Tiny(duration: 4));

        var (code, output, errors) = await Cli.RunAsync(["-s", scenario, "-o", folder.File("report")], Limit);

        Assert.Equal(0, code);
        Assert.Contains("Report: ", output, StringComparison.Ordinal);
        Assert.DoesNotContain('\u001b', output);
        Assert.DoesNotContain('\u001b', errors);
    }

    [Fact]
    public async Task PipedError_IsOneUnwrappedLinePerProblem()
    {
        using var folder = new TempFolder();
        var scenario = folder.Write("tiny.json", Scenarios.Tiny(duration: 4));

        var (code, _, errors) = await Cli.RunAsync(["-s", scenario, "--duration", "0.5"], Limit, new Dictionary<string, string> { ["NO_COLOR"] = "1" });

        Assert.Equal(2, code);
        Assert.DoesNotContain('\u001b', errors);
        Assert.Contains(errors.Split('\n'), line => line.Contains("warmUpSeconds: must be less than durationSeconds (0.5), was 1", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("--seed", "abc", "--seed: 'abc' is not a whole number.")]
    [InlineData("--duration", "soon", "--duration: 'soon' is not a number.")]
    [InlineData("--duration", "-3", "--duration: must be greater than 0, was -3.")]
    public async Task BadNumber_SaysWhatWasExpected(string option, string value, string message)
    {
        var (code, _, errors) = await Cli.RunAsync([option, value], Limit);

        Assert.Equal(1, code);
        Assert.Contains(message, errors, StringComparison.Ordinal);
        Assert.DoesNotContain("System.", errors, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { "check", "--count", "1", "--parallel", "0" }, "--parallel must be at least 1, got 0.")]
    [InlineData(new[] { "check", "--count", "1", "--rate-control", "{\"overloadHold\": {\"utilization\": 1.5}}" }, "--rate-control: Must be in (0, 1] (a fraction of the target load).")]
    [InlineData(new[] { "check", "--count", "1", "--rate-control", "{\"overloadHolds\": 1}" }, "'overloadHolds'")]
    [InlineData(new[] { "check", "--count", "1", "--rate-control", "[1]" }, "--rate-control must be a JSON object of BottleneckFairnessOptions' properties")]
    [InlineData(new[] { "check", "--count", "1", "--rate-control", "{" }, "--rate-control is not valid JSON")]
    public async Task Check_BadOption_SaysWhy(string[] args, string message)
    {
        var (code, _, errors) = await Cli.RunAsync(args, Limit);

        Assert.Equal(1, code);
        Assert.Contains(message, errors, StringComparison.Ordinal);
    }

    // System.Random draws for -N what it draws for N, and for int.MaxValue what it draws for 0: such a seed would
    // repeat another's scenario under a name of its own.
    [Theory]
    [InlineData(new[] { "generate", "--seed", "-5" }, "--seed must be a seed from 0 to 2147483646, got -5")]
    [InlineData(new[] { "generate", "--seed", "2147483647" }, "--seed must be a seed from 0 to 2147483646, got 2147483647")]
    [InlineData(new[] { "check", "--from", "-1", "--count", "2" }, "--from must be a seed from 0 to 2147483646, got -1")]
    [InlineData(new[] { "check", "--from", "2147483646", "--count", "2" }, "--from 2147483646 --count 2 runs past the last seed, 2147483646.")]
    public async Task Seed_OutOfRange_SaysWhy(string[] args, string message)
    {
        var (code, _, errors) = await Cli.RunAsync(args, Limit);

        Assert.Equal(1, code);
        Assert.Contains(message, errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Cycle_IsAScenarioErrorWithItsPath()
    {
        using var folder = new TempFolder();
        var scenario = folder.Write("cycle.json", Scenarios.Tiny(duration: 4, stages: """[{ "call": "be", "stages": [{ "call": "fe", "stages": [] }] }]"""));

        var (code, _, errors) = await Cli.RunAsync(["-s", scenario], Limit);

        Assert.Equal(2, code);
        Assert.Contains("fe -> be -> fe", errors, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Replay_HeaderOnlyTrace_IsATraceErrorWithoutAStackTrace()
    {
        using var folder = new TempFolder();
        var trace = folder.File("empty.trace");
        using (var stream = File.Create(trace))
        using (var writer = new TraceWriter(stream))
        {
            writer.Flush();
        }

        var (code, _, errors) = await Cli.RunAsync(["replay", "--trace", trace, "-o", folder.File("report")], Limit);

        Assert.Equal(6, code);
        Assert.Contains("no requests", errors, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", errors, StringComparison.Ordinal);
    }

    [Fact]
    public void Console_NoColorOrRedirected_WritesNoEscapeCodesAndDoesNotWrap()
    {
        foreach (var (redirected, noColor) in new[] { (true, (string?)null), (false, "1") })
        {
            using var writer = new StringWriter();
            var console = ConsoleFactory.Create(writer, redirected, name => name == "NO_COLOR" ? noColor : null);

            console.MarkupLine("[red]failed[/] " + new string('x', 300));

            Assert.DoesNotContain('\u001b', writer.ToString());
            if (redirected)
            {
                Assert.Single(writer.ToString().TrimEnd('\n').Split('\n'));
            }
        }
    }

    [Fact]
    public void Options_OneMeaningPerNameAcrossCommands()
    {
        var root = StorageTopologyCommand.Create(AnsiConsole.Console, AnsiConsole.Console);
        var meanings = new Dictionary<string, HashSet<Type>>(StringComparer.Ordinal);
        void Collect(Command command)
        {
            foreach (var option in command.Options)
            {
                foreach (var name in option.Aliases.Append(option.Name))
                {
                    (meanings.TryGetValue(name, out var types) ? types : meanings[name] = []).Add(Nullable.GetUnderlyingType(option.ValueType) ?? option.ValueType);
                }
            }

            foreach (var sub in command.Subcommands)
            {
                Collect(sub);
            }
        }

        Collect(root);

        Assert.All(meanings, m => Assert.True(m.Value.Count == 1, $"{m.Key} takes {string.Join(" and ", m.Value)}"));
        Assert.Equal(typeof(bool), Assert.Single(meanings["--closed-loop"]));
        Assert.Equal(typeof(int), Assert.Single(meanings["--clients"]));
    }

    [Fact]
    public void LiveListen_DefaultsToLoopback()
    {
        var root = StorageTopologyCommand.Create(AnsiConsole.Console, AnsiConsole.Console);

        var listen = root.Parse([]).GetValue<string>("--listen");

        Assert.Equal("127.0.0.1", listen);
        Assert.Equal("127.0.0.1", new LiveRunnerOptions().ListenHost);
    }

    [Fact]
    public void HarnessFlags_AreOnlyOnTheHiddenHarnessCommand()
    {
        var root = StorageTopologyCommand.Create(AnsiConsole.Console, AnsiConsole.Console);
        string[] harnessFlags = ["--monitor", "--rate-exchange-port-offset", "--listen-port-offset", "--slow-factor"];

        var userCommands = root.Subcommands.Where(c => !c.Hidden).Prepend(root);
        Assert.All(userCommands, c => Assert.DoesNotContain(c.Options, o => harnessFlags.Contains(o.Name)));
        var harness = Assert.Single(root.Subcommands, c => c.Name == HarnessCommand.Name);
        Assert.True(harness.Hidden);
        Assert.All(harnessFlags, flag => Assert.Contains(harness.Options, o => o.Name == flag));
        Assert.NotEmpty(root.Parse(["--monitor", "m.csv"]).Errors);
        Assert.Empty(root.Parse(["harness", "--runner", "live", "--monitor", "m.csv", "--slow-factor", "10", "--listen-port-offset", "2000"]).Errors);
    }
}
