// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Runtime;

namespace Cicero.Benchmarks;

/// <summary>
/// Runs one variant of <see cref="GrpcCallBenchmarks"/> or <see cref="BalancerCallBenchmarks"/> in this process, and
/// only the servers it calls: what <see cref="GrpcCallPaired"/> starts once per variant and round, and what a profiler
/// attaches to (<c>perf record</c>, <c>dotnet-counters</c>).
/// </summary>
/// <remarks>
/// Run with <c>dotnet bench/Cicero.Benchmarks/bin/Release/net10.0/Cicero.Benchmarks.dll grpc-profile
/// plain|cicero|client-only|client-no-context|server-only|ambient-only|wire-only|pass-through|round_robin|c3|c3-unlimited (each also +cicero) [invocations]
/// [--latency calls] [--handler-work µs]</c>. With <c>--latency</c> it then makes that many calls one at a time and
/// reports their p50 (what <see cref="GrpcCallPaired"/> reads); <c>--handler-work</c> makes every server handler busy
/// for that long before it answers. Besides throughput it prints CPU time, bytes allocated per call (process-wide, so
/// client and server side together), garbage collections, thread-pool work items and lock contentions per call, so
/// that a difference between variants can be traced to the runtime's scheduling as well as to their code.
/// </remarks>
internal static class GrpcCallProfile
{
    /// <summary>The prefix of the one machine-readable line a run prints.</summary>
    public const string ResultPrefix = "RESULT ";

    public static async Task RunAsync(string variant, int invocations, int latencyCalls = 0, TimeSpan handlerWork = default)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(invocations, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(latencyCalls);
        var (setup, cleanup, run, call) = Harness(variant, handlerWork);
        await setup();
        using var sampler = Environment.GetEnvironmentVariable("CICERO_ALLOCATION_TYPES") == "1" ? new AllocationSampler() : null;
        try
        {
            await WarmUpAsync(run, invocations);

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
            var jitted = System.Runtime.JitInfo.GetCompiledMethodCount();
            var jitTime = System.Runtime.JitInfo.GetCompilationTime();
            var allocated = GC.GetTotalAllocatedBytes(precise: true);
            for (var i = 0; i < invocations; i++)
            {
                await run();
            }

            var calls = (double)invocations * GrpcCallBenchmarks.CallsPerInvoke;
            var elapsed = clock.GetElapsedTime(start);
            var bytesPerCall = (GC.GetTotalAllocatedBytes(precise: true) - allocated) / calls;
            var cpuPerCall = (Environment.CpuUsage.TotalTime - cpu).TotalMicroseconds / calls;
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"{variant}: {calls:F0} calls in {elapsed.TotalSeconds:F2} s = {calls / elapsed.TotalSeconds:F0} calls/s, process CPU {cpuPerCall:F1} µs per call, {calls / Math.Max(1, GC.CollectionCount(0) - gen0):F0} calls per gen0 GC, GC pauses {(GC.GetTotalPauseDuration() - pause).TotalMicroseconds / calls:F2} µs per call, {bytesPerCall:F0} B allocated per call (process-wide: client and server)"));
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"thread pool: {(ThreadPool.CompletedWorkItemCount - workItems) / calls:F2} work items per call, {ThreadPool.ThreadCount} threads; {(Monitor.LockContentionCount - contentions) / calls:F4} lock contentions per call"));
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"jit: {System.Runtime.JitInfo.GetCompiledMethodCount() - jitted} methods compiled while measuring, {(System.Runtime.JitInfo.GetCompilationTime() - jitTime).TotalMilliseconds:F0} ms of JIT time"));
            var gc = GC.GetGCMemoryInfo(GCKind.Ephemeral);
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"collections: gen0 {GC.CollectionCount(0) - gen0}, gen1 {GC.CollectionCount(1) - gen1}, gen2 {GC.CollectionCount(2) - gen2}; last gen{gc.Generation} GC: pause {gc.PauseDurations[0].TotalMilliseconds:F2} ms, promoted {gc.PromotedBytes / 1024.0:F0} KB, heap {gc.HeapSizeBytes / 1048576.0:F1} MB, gen0 before {gc.GenerationInfo[0].SizeBeforeBytes / 1048576.0:F1} MB, gen1 {gc.GenerationInfo[1].SizeAfterBytes / 1048576.0:F1} MB, gen2 {gc.GenerationInfo[2].SizeAfterBytes / 1048576.0:F1} MB, pinned {gc.PinnedObjectsCount}, server {GCSettings.IsServerGC}, concurrent {gc.Concurrent}"));
            var (p50, latencyBytesPerCall) = latencyCalls > 0 ? await MedianLatencyAsync(call, latencyCalls) : (double.NaN, double.NaN);
            if (latencyCalls > 0)
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{variant}: {latencyCalls} calls one at a time, p50 {p50:F2} µs, {latencyBytesPerCall:F0} B allocated per call"));
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{ResultPrefix}{variant} {calls / elapsed.TotalSeconds:F1} {p50:F3} {bytesPerCall:F1} {latencyBytesPerCall:F1} {cpuPerCall:F2}"));
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
            await cleanup();
        }
    }

    /// <summary>Set-up, clean-up, the throughput invocation and the single call of a variant (bound once set up).</summary>
    private static (Func<Task> Setup, Func<Task> Cleanup, Func<Task> Run, Func<Task> Call) Harness(string variant, TimeSpan handlerWork)
    {
        Func<Task>? run = null;
        Func<Task>? call = null;
        if (GrpcCallBenchmarks.Variants.Contains(variant))
        {
            var bench = new GrpcCallBenchmarks { HandlerWork = handlerWork };
            return (
                async () =>
                {
                    await bench.SetupAsync(variant);
                    run = bench.Concurrent(variant);
                    call = bench.Call(variant);
                },
                bench.Cleanup,
                () => run!(),
                () => call!());
        }

        if (BalancerCallBenchmarks.Variants.Contains(variant))
        {
            if (handlerWork > TimeSpan.Zero)
            {
                throw new ArgumentException("The balancer variants have no --handler-work.", nameof(handlerWork));
            }

            var policy = variant.Split('+')[0];
            var bench = new BalancerCallBenchmarks { WithCicero = variant.EndsWith("+cicero", StringComparison.Ordinal) };
            return (
                async () =>
                {
                    await bench.SetupAsync(policy);
                    run = bench.Concurrent(policy);
                    call = bench.Call(policy);
                },
                bench.Cleanup,
                () => run!(),
                () => call!());
        }

        throw new ArgumentException(
            $"Unknown variant '{variant}'; use {string.Join(", ", GrpcCallBenchmarks.Variants.Concat(BalancerCallBenchmarks.Variants))}.", nameof(variant));
    }

    /// <summary>
    /// Runs invocations until the JIT is quiet: a steady state, not the tiering of the first seconds, is what a
    /// long-running service pays per call.
    /// </summary>
    /// <remarks>
    /// With tiered compilation and dynamic PGO a method goes through tier 0, an instrumented tier and tier 1, each
    /// promotion queued behind a back-off that restarts whenever new tier-0 code runs. A fixed warm-up of a few
    /// thousand calls left 3,000-3,700 methods still to compile during the measurement (2-3 s of JIT time on one of the
    /// two cores in a 5 s window), so the variant with more code (Cicero) was charged for its compilation. A chunk of
    /// invocations that compiles fewer than <see cref="QuietJitMethods"/> methods ends the warm-up, or
    /// <see cref="MaxWarmUp"/> does, whichever comes first; either way the figures say what the JIT did meanwhile.
    /// </remarks>
    private static async Task WarmUpAsync(Func<Task> run, int invocations)
    {
        var chunk = Math.Max(1, invocations / 4);
        var clock = TimeProvider.System;
        var start = clock.GetTimestamp();
        var chunks = 0;
        while (true)
        {
            var before = System.Runtime.JitInfo.GetCompiledMethodCount();
            for (var i = 0; i < chunk; i++)
            {
                await run();
            }

            chunks++;
            var compiled = System.Runtime.JitInfo.GetCompiledMethodCount() - before;
            if ((compiled < QuietJitMethods && chunks >= 2) || clock.GetElapsedTime(start) > MaxWarmUp)
            {
                Console.WriteLine(string.Create(
                    CultureInfo.InvariantCulture,
                    $"warm-up: {chunks * chunk} invocations in {clock.GetElapsedTime(start).TotalSeconds:F1} s, {compiled} methods compiled in the last {chunk}"));
                return;
            }
        }
    }

    /// <summary>A warm-up chunk that compiles fewer methods than this is taken as the end of tiering.</summary>
    private const int QuietJitMethods = 5;

    /// <summary>The longest warm-up before measuring anyway.</summary>
    private static readonly TimeSpan MaxWarmUp = TimeSpan.FromSeconds(30);

    private static async Task<(double P50, double BytesPerCall)> MedianLatencyAsync(Func<Task> call, int calls)
    {
        var clock = TimeProvider.System;
        for (var i = 0; i < calls / 4; i++)
        {
            await call();
        }

        var micros = new double[calls];
        var allocated = GC.GetTotalAllocatedBytes(precise: true);
        for (var i = 0; i < calls; i++)
        {
            var start = clock.GetTimestamp();
            await call();
            micros[i] = clock.GetElapsedTime(start).TotalMicroseconds;
        }

        // The timestamps array was allocated before the first reading: the delta is the calls' own garbage.
        return (Medians.Of(micros), (GC.GetTotalAllocatedBytes(precise: true) - allocated) / (double)calls);
    }
}
