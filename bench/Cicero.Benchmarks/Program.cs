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
    await GrpcCallProfile.RunAsync(variant, args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 200);
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
