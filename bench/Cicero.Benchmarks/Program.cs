// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using BenchmarkDotNet.Running;
using Cicero.Benchmarks;

if (args is ["grpc-interleaved", ..])
{
    await GrpcCallInterleaved.RunAsync(args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 40);
    return;
}

BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
