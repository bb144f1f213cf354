// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Runtime;

namespace Cicero.Benchmarks;

/// <summary>
/// Runs only one variant of <see cref="GrpcCallBenchmarks"/>'s throughput loop, for a profiler to attach to
/// (<c>perf record</c>, <c>dotnet-counters</c>): the other variant's server is started but never called.
/// </summary>
/// <remarks>
/// Run with <c>dotnet run -c Release --project bench/Cicero.Benchmarks -- grpc-profile
/// plain|cicero|client-only|server-only|wire-only|ambient-only [invocations] [--latency calls] [--handler-work µs]</c>. With
/// <c>--latency</c> it then makes that many calls one at a time and reports their p50 (what <see cref="GrpcCallPaired"/>
/// reads); <c>--handler-work</c> makes every server handler busy for that long before it answers. Besides throughput it prints CPU time, garbage collections, thread-pool work items and lock contentions per
/// call, so that a difference between variants can be traced to the runtime's scheduling as well as to their code.
/// </remarks>
internal static class GrpcCallProfile
{
    /// <summary>The prefix of the one machine-readable line a run prints.</summary>
    public const string ResultPrefix = "RESULT ";

    public static async Task RunAsync(string variant, int invocations, int latencyCalls = 0, TimeSpan handlerWork = default)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(invocations, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(latencyCalls);
        var bench = new GrpcCallBenchmarks { HandlerWork = handlerWork };
        (Func<Task> run, Func<Task<string>> call) = variant switch
        {
            "plain" => (bench.PlainConcurrent, bench.PlainCall),
            "cicero" => (bench.CiceroConcurrent, bench.CiceroCall),
            "client-only" => (bench.ClientOnlyConcurrent, bench.ClientOnlyCall),
            "server-only" => (bench.ServerOnlyConcurrent, bench.ServerOnlyCall),
            "wire-only" => (bench.WireOnlyConcurrent, bench.WireOnlyCall),
            "ambient-only" => ((Func<Task>)bench.AmbientOnlyConcurrent, (Func<Task<string>>)bench.AmbientOnlyCall),
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
            var gen1 = GC.CollectionCount(1);
            var gen2 = GC.CollectionCount(2);
            var pause = GC.GetTotalPauseDuration();
            var workItems = ThreadPool.CompletedWorkItemCount;
            var contentions = Monitor.LockContentionCount;
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
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"thread pool: {(ThreadPool.CompletedWorkItemCount - workItems) / calls:F2} work items per call, {ThreadPool.ThreadCount} threads; {(Monitor.LockContentionCount - contentions) / calls:F4} lock contentions per call"));
            var gc = GC.GetGCMemoryInfo(GCKind.Ephemeral);
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"collections: gen0 {GC.CollectionCount(0) - gen0}, gen1 {GC.CollectionCount(1) - gen1}, gen2 {GC.CollectionCount(2) - gen2}; last gen{gc.Generation} GC: pause {gc.PauseDurations[0].TotalMilliseconds:F2} ms, promoted {gc.PromotedBytes / 1024.0:F0} KB, heap {gc.HeapSizeBytes / 1048576.0:F1} MB, gen0 before {gc.GenerationInfo[0].SizeBeforeBytes / 1048576.0:F1} MB, gen1 {gc.GenerationInfo[1].SizeAfterBytes / 1048576.0:F1} MB, gen2 {gc.GenerationInfo[2].SizeAfterBytes / 1048576.0:F1} MB, pinned {gc.PinnedObjectsCount}, server {GCSettings.IsServerGC}, concurrent {gc.Concurrent}"));
            var p50 = latencyCalls > 0 ? await MedianLatencyAsync(call, latencyCalls) : double.NaN;
            if (latencyCalls > 0)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{variant}: {latencyCalls} calls one at a time, p50 {p50:F2} µs"));
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{ResultPrefix}{variant} {calls / elapsed.TotalSeconds:F1} {p50:F3}"));
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

    private static async Task<double> MedianLatencyAsync(Func<Task<string>> call, int calls)
    {
        var clock = TimeProvider.System;
        for (var i = 0; i < calls / 4; i++)
        {
            await call();
        }

        var micros = new double[calls];
        for (var i = 0; i < calls; i++)
        {
            var start = clock.GetTimestamp();
            await call();
            micros[i] = clock.GetElapsedTime(start).TotalMicroseconds;
        }

        return Medians.Of(micros);
    }
}
