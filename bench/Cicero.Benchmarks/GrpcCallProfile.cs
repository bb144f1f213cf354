// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Benchmarks;

/// <summary>
/// Runs only one variant of <see cref="GrpcCallBenchmarks"/>'s throughput loop, for a profiler to attach to
/// (<c>perf record</c>, <c>dotnet-counters</c>): the other variant's server is started but never called.
/// </summary>
/// <remarks>Run with <c>dotnet run -c Release --project bench/Cicero.Benchmarks -- grpc-profile plain|cicero|client-only|server-only|wire-only|ambient-only [invocations]</c>.</remarks>
internal static class GrpcCallProfile
{
    public static async Task RunAsync(string variant, int invocations)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(invocations, 1);
        var bench = new GrpcCallBenchmarks();
        Func<Task> run = variant switch
        {
            "plain" => bench.PlainConcurrent,
            "cicero" => bench.CiceroConcurrent,
            "client-only" => bench.ClientOnlyConcurrent,
            "server-only" => bench.ServerOnlyConcurrent,
            "wire-only" => bench.WireOnlyConcurrent,
            "ambient-only" => bench.AmbientOnlyConcurrent,
            _ => throw new ArgumentException($"Unknown variant '{variant}'; use plain, cicero, client-only, server-only, wire-only or ambient-only.", nameof(variant)),
        };

        await bench.Setup();
        using var sampler = Environment.GetEnvironmentVariable("CICERO_ALLOCATION_TYPES") == "1" ? new AllocationSampler() : null;
        try
        {
            // Warm up (tiered JIT) before sampling allocations, so the figures are steady state.
            for (var i = 0; i < invocations / 4; i++)
            {
                await run();
            }

            sampler?.Start();
            var clock = TimeProvider.System;
            var start = clock.GetTimestamp();
            var cpu = Environment.CpuUsage.TotalTime;
            var gen0 = GC.CollectionCount(0);
            var pause = GC.GetTotalPauseDuration();
            for (var i = 0; i < invocations; i++)
            {
                await run();
            }

            var calls = (double)invocations * GrpcCallBenchmarks.CallsPerInvoke;
            var elapsed = clock.GetElapsedTime(start);
            var cpuPerCall = (Environment.CpuUsage.TotalTime - cpu).TotalMicroseconds / calls;
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"{variant}: {calls:F0} calls in {elapsed.TotalSeconds:F2} s = {calls / elapsed.TotalSeconds:F0} calls/s, process CPU {cpuPerCall:F1} µs per call, {calls / Math.Max(1, GC.CollectionCount(0) - gen0):F0} calls per gen0 GC, GC pauses {(GC.GetTotalPauseDuration() - pause).TotalMicroseconds / calls:F2} µs per call"));
            if (sampler is not null)
            {
                foreach (var (type, bytes) in sampler.Top(40))
                {
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{bytes / calls,8:F0} B/call  {type}"));
                }
            }
        }
        finally
        {
            await bench.Cleanup();
        }
    }
}
