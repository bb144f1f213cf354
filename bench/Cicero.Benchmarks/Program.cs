// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using BenchmarkDotNet.Running;
using Cicero.Benchmarks;

if (args is ["grpc-interleaved", ..])
{
    await GrpcCallInterleaved.RunAsync(
        args.Length > 1 && !args[1].StartsWith('-') ? int.Parse(args[1], CultureInfo.InvariantCulture) : 40,
        attribution: args.Contains("--attribution"));
    return;
}

if (args is ["grpc-profile", var variant, ..])
{
    await GrpcCallProfile.RunAsync(
        variant,
        args.Length > 2 && !args[2].StartsWith('-') ? int.Parse(args[2], CultureInfo.InvariantCulture) : 200,
        OptionValue(args, "--latency") ?? 0,
        TimeSpan.FromMicroseconds(OptionValue(args, "--handler-work") ?? 0));
    return;
}

if (args is ["grpc-paired", ..])
{
    await GrpcCallPaired.RunAsync(
        args.Length > 1 && !args[1].StartsWith('-') ? int.Parse(args[1], CultureInfo.InvariantCulture) : 15,
        args.Length > 2 && !args[2].StartsWith('-') ? args[2] : "cicero",
        OptionValue(args, "--handler-work") ?? 0,
        StringOption(args, "--baseline") ?? "plain",
        OptionValue(args, "--invocations") ?? GrpcCallPaired.DefaultInvocations,
        OptionValue(args, "--latency-calls") ?? GrpcCallPaired.DefaultLatencyCalls);
    return;
}

if (args is ["simulator", ..])
{
    Cicero.Benchmarks.Simulator.SimulatorSpeed.Run(args.Length > 1 ? args[1..] : Cicero.Benchmarks.Simulator.SimulatorSpeed.DefaultCases);
    return;
}

if (args is ["simulator-case", var simulatorCase, ..])
{
    Cicero.Benchmarks.Simulator.SimulatorSpeed.RunCase(simulatorCase, args.Contains("--allocations"));
    return;
}

if (args is ["balancer-outcome-client", var plan])
{
    await Cicero.Benchmarks.Outcome.OutcomeClient.RunAsync(plan);
    return;
}

if (args is ["balancer-outcome", ..])
{
    static string[] List(string? value, string fallback) => (value ?? fallback).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    await Cicero.Benchmarks.Outcome.BalancerOutcome.RunAsync(
        List(StringOption(args, "--configs"), "A,B,C,D,F,S"),
        List(StringOption(args, "--variants"), "round_robin,c3,c3-paper,dynamic-snitch,p2c-peak-ewma,least-outstanding"),
        OptionValue(args, "--reps") ?? 3,
        OptionValue(args, "--calls") ?? 20_000,
        OptionValue(args, "--warmup") ?? 2_000,
        StringOption(args, "--interceptor") != "off",
        args.Contains("--json"),
        OptionValue(args, "--rate") ?? 0);
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);

static int? OptionValue(string[] args, string name) =>
    StringOption(args, name) is { } value ? int.Parse(value, CultureInfo.InvariantCulture) : null;

static string? StringOption(string[] args, string name)
{
    var at = Array.IndexOf(args, name);
    return at > 0 && at + 1 < args.Length ? args[at + 1] : null;
}
