// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Benchmarks;

/// <summary>
/// The grpc-dotnet calls of <see cref="GrpcCallBenchmarks"/> measured interleaved rather than one after the other: blocks of plain
/// and Cicero calls alternate, so load from other processes on a shared machine falls on both alike. Reports the
/// per-call p50/p95/p99 (BenchmarkDotNet's Median is the median of iteration means, not of single calls) and the
/// calls per second at concurrency 8.
/// </summary>
/// <remarks>
/// Run with <c>dotnet run -c Release --project bench/Cicero.Benchmarks -- grpc-interleaved [blocks] [--attribution]</c>;
/// <c>--attribution</c> adds the Cicero client alone, the Cicero server alone and the ambient context alone.
/// </remarks>
internal static class GrpcCallInterleaved
{
    private const int CallsPerBlock = 200;
    private const int WarmupCalls = 2000;

    public static async Task RunAsync(int blocks, bool attribution = false)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(blocks, 1);
        var bench = new GrpcCallBenchmarks();
        await bench.Setup();
        try
        {
            var variants = new List<Variant>
            {
                new("no interceptors (baseline)", bench.Call("plain"), bench.Concurrent("plain"), blocks),
                new("Cicero client + server interceptors", bench.Call("cicero"), bench.Concurrent("cicero"), blocks),
            };
            if (attribution)
            {
                variants.Add(new("Cicero client, plain server", bench.Call("client-only"), bench.Concurrent("client-only"), blocks));
                variants.Add(new("plain client, Cicero server", bench.Call("server-only"), bench.Concurrent("server-only"), blocks));
                variants.Add(new("no interceptors, ambient context set", bench.Call("ambient-only"), bench.Concurrent("ambient-only"), blocks));
                variants.Add(new("no interceptors, Cicero-sized header and trailer by hand", bench.Call("wire-only"), bench.Concurrent("wire-only"), blocks));
            }

            foreach (var variant in variants)
            {
                for (var i = 0; i < WarmupCalls; i++)
                {
                    await variant.Call();
                }

                await variant.Concurrent();
            }

            for (var block = 0; block < blocks; block++)
            {
                // Alternate which variant goes first, so neither always follows the other.
                for (var k = 0; k < variants.Count; k++)
                {
                    await variants[(block + k) % variants.Count].MeasureBlockAsync();
                }
            }

            Report(variants, blocks);
        }
        finally
        {
            await bench.Cleanup();
        }
    }

    private static void Report(List<Variant> variants, int blocks)
    {
        var baseline = variants[0];
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"{blocks} blocks x {CallsPerBlock} sequential calls and {GrpcCallBenchmarks.CallsPerInvoke} calls at concurrency {GrpcCallBenchmarks.Concurrency} per variant"));
        Console.WriteLine("| variant | p50 | p95 | p99 | p50 ratio | allocated / call | calls/s at concurrency 8 | throughput ratio |");
        Console.WriteLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var v in variants)
        {
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"| {v.Name} | {v.Percentile(0.50):F1} µs | {v.Percentile(0.95):F1} µs | {v.Percentile(0.99):F1} µs | {v.Percentile(0.50) / baseline.Percentile(0.50):F2} | {v.AllocatedPerCall:F0} B | {v.CallsPerSecond:F0} | {v.CallsPerSecond / baseline.CallsPerSecond:F2} |"));
        }
    }

    private sealed class Variant(string name, Func<Task> call, Func<Task> concurrent, int blocks)
    {
        private readonly List<double> _latencies = new(blocks * CallsPerBlock);
        private long _allocated;
        private long _concurrentTicks;
        private long _concurrentCalls;

        public string Name { get; } = name;

        public Func<Task> Call { get; } = call;

        public Func<Task> Concurrent { get; } = concurrent;

        public double AllocatedPerCall => (double)_allocated / _latencies.Count;

        public double CallsPerSecond => _concurrentCalls / TimeSpan.FromTicks(_concurrentTicks).TotalSeconds;

        public async Task MeasureBlockAsync()
        {
            var clock = TimeProvider.System;
            var allocated = GC.GetTotalAllocatedBytes(precise: true);
            for (var i = 0; i < CallsPerBlock; i++)
            {
                var start = clock.GetTimestamp();
                await Call();
                _latencies.Add(clock.GetElapsedTime(start).TotalMicroseconds);
            }

            _allocated += GC.GetTotalAllocatedBytes(precise: true) - allocated;

            var begin = clock.GetTimestamp();
            await Concurrent();
            _concurrentTicks += clock.GetElapsedTime(begin).Ticks;
            _concurrentCalls += GrpcCallBenchmarks.CallsPerInvoke;
        }

        public double Percentile(double p)
        {
            _latencies.Sort();
            return _latencies[(int)Math.Min(_latencies.Count - 1, Math.Floor(p * _latencies.Count))];
        }
    }
}
