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
    var latency = Array.IndexOf(args, "--latency");
    await GrpcCallProfile.RunAsync(
        variant,
        args.Length > 2 && !args[2].StartsWith('-') ? int.Parse(args[2], CultureInfo.InvariantCulture) : 200,
        latency > 0 && latency + 1 < args.Length ? int.Parse(args[latency + 1], CultureInfo.InvariantCulture) : 0);
    return;
}

if (args is ["grpc-paired", ..])
{
    await GrpcCallPaired.RunAsync(
        args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 15,
        args.Length > 2 ? args[2] : "cicero");
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
