// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;

namespace Cicero.Benchmarks;

/// <summary>
/// Two variants of <see cref="GrpcCallProfile"/> (by default the plain grpc-dotnet call and the Cicero call), each in
/// its own process, in alternating pairs: every round starts one process per variant (the order swaps each round),
/// and the verdict is the median of the per-round ratios with a distribution-free 95% confidence interval.
/// </summary>
/// <remarks>
/// <para>
/// Why pairs of processes: on the reference machine a loopback call settles, per process, into one of two speeds, and
/// the machine's speed drifts over minutes (other work shares its two cores). BenchmarkDotNet runs all launches of one
/// benchmark before the next, so a drift or an uneven draw of slow processes lands on one variant; the one-process
/// <see cref="GrpcCallInterleaved"/> harness cancels both but lets the JIT's profile-guided optimisation see both
/// variants' types at shared call sites, which a real service never does. Pairs of processes, alternated, cancel the
/// drift, and each process runs one configuration, as a service does; the per-process draw stays, which is why the
/// ratios are summarised by their median over many rounds.
/// </para>
/// <para>
/// Run with <c>dotnet bench/Cicero.Benchmarks/bin/Release/net10.0/Cicero.Benchmarks.dll grpc-paired [rounds] [variant]
/// [--baseline variant] [--handler-work µs] [--invocations n] [--latency-calls n]</c> (defaults 15, <c>cicero</c>,
/// <c>plain</c>, 0, <see cref="DefaultInvocations"/> and <see cref="DefaultLatencyCalls"/>; any
/// <see cref="GrpcCallProfile"/> variant can be paired with any other, e.g. <c>c3 --baseline round_robin</c>). Besides
/// the ratios it reports the paired differences in µs per call (p50 one at a time, and machine time per call at
/// concurrency 8, 1/throughput), the process CPU time per call (client and server; less sensitive than wall time to
/// other work on the machine) and each variant's bytes allocated per call. Every round's line carries both processes'
/// figures (CPU per call included), so that several runs can be pooled afterwards.
/// </para>
/// </remarks>
internal static class GrpcCallPaired
{
    /// <summary>The throughput invocations per process unless <c>--invocations</c> says otherwise (a quarter more warm up first).</summary>
    public const int DefaultInvocations = 300;

    /// <summary>The calls one at a time per process unless <c>--latency-calls</c> says otherwise (a quarter more warm up first).</summary>
    public const int DefaultLatencyCalls = 20_000;

    public static async Task RunAsync(
        int rounds,
        string variant,
        int handlerWorkMicros = 0,
        string baseline = "plain",
        int invocations = DefaultInvocations,
        int latencyCalls = DefaultLatencyCalls)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(rounds, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(invocations, 1);
        ArgumentOutOfRangeException.ThrowIfLessThan(latencyCalls, 1);
        var plain = new List<Result>();
        var other = new List<Result>();
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"{rounds} rounds, {variant} against {baseline}, handler work {handlerWorkMicros} µs; {invocations} x {GrpcCallBenchmarks.CallsPerInvoke} calls at concurrency {GrpcCallBenchmarks.Concurrency}, then {latencyCalls} calls one at a time, per process"));
        Console.WriteLine($"round  first        {baseline} calls/s  {variant} calls/s  ratio   {baseline} p50 µs  {variant} p50 µs  ratio   {baseline} B/call  {variant} B/call  {baseline} CPU µs  {variant} CPU µs");
        for (var round = 1; round <= rounds; round++)
        {
            Result a, b;
            if (round % 2 == 1)
            {
                a = await RunChildAsync(baseline, handlerWorkMicros, invocations, latencyCalls);
                b = await RunChildAsync(variant, handlerWorkMicros, invocations, latencyCalls);
            }
            else
            {
                b = await RunChildAsync(variant, handlerWorkMicros, invocations, latencyCalls);
                a = await RunChildAsync(baseline, handlerWorkMicros, invocations, latencyCalls);
            }

            plain.Add(a);
            other.Add(b);
            Console.WriteLine(string.Create(
                CultureInfo.InvariantCulture,
                $"{round,5}  {(round % 2 == 1 ? baseline : variant),-12} {a.CallsPerSecond,14:F0} {b.CallsPerSecond,16:F0}  {b.CallsPerSecond / a.CallsPerSecond,5:F3} {a.P50Micros,13:F1} {b.P50Micros,15:F1}  {b.P50Micros / a.P50Micros,5:F3} {a.BytesPerCall,12:F0} {b.BytesPerCall,14:F0} {a.CpuMicrosPerCall,13:F1} {b.CpuMicrosPerCall,15:F1}"));
        }

        Console.WriteLine();
        Console.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"medians: {baseline} {Medians.Of(plain.Select(r => r.CallsPerSecond)):F0} calls/s, p50 {Medians.Of(plain.Select(r => r.P50Micros)):F1} µs, {Medians.Of(plain.Select(r => r.BytesPerCall)):F0} B/call at concurrency 8, {Medians.Of(plain.Select(r => r.LatencyBytesPerCall)):F0} B/call one at a time, CPU {Medians.Of(plain.Select(r => r.CpuMicrosPerCall)):F1} µs/call; {variant} {Medians.Of(other.Select(r => r.CallsPerSecond)):F0} calls/s, p50 {Medians.Of(other.Select(r => r.P50Micros)):F1} µs, {Medians.Of(other.Select(r => r.BytesPerCall)):F0} B/call at concurrency 8, {Medians.Of(other.Select(r => r.LatencyBytesPerCall)):F0} B/call one at a time, CPU {Medians.Of(other.Select(r => r.CpuMicrosPerCall)):F1} µs/call"));
        var pairs = plain.Zip(other).ToList();
        Report($"throughput, {variant} ÷ {baseline}", "F3", pairs.Select(p => p.Second.CallsPerSecond / p.First.CallsPerSecond));
        Report($"p50 latency, {variant} ÷ {baseline}", "F3", pairs.Select(p => p.Second.P50Micros / p.First.P50Micros));
        Report($"added p50 µs per call, {variant} − {baseline}", "F2", pairs.Select(p => p.Second.P50Micros - p.First.P50Micros));
        Report($"added machine µs per call at concurrency {GrpcCallBenchmarks.Concurrency} (1/throughput), {variant} − {baseline}", "F2", pairs.Select(p => (1e6 / p.Second.CallsPerSecond) - (1e6 / p.First.CallsPerSecond)));
        Report($"process CPU per call at concurrency {GrpcCallBenchmarks.Concurrency}, {variant} ÷ {baseline}", "F3", pairs.Select(p => p.Second.CpuMicrosPerCall / p.First.CpuMicrosPerCall));
        Report($"added process CPU µs per call at concurrency {GrpcCallBenchmarks.Concurrency}, {variant} − {baseline}", "F2", pairs.Select(p => p.Second.CpuMicrosPerCall - p.First.CpuMicrosPerCall));
        Report($"added bytes per call at concurrency {GrpcCallBenchmarks.Concurrency}, {variant} − {baseline}", "F0", pairs.Select(p => p.Second.BytesPerCall - p.First.BytesPerCall));
    }

    private static void Report(string what, string format, IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        var (low, high) = MedianConfidenceInterval(sorted);
        string F(double v) => v.ToString(format, CultureInfo.InvariantCulture);
        Console.WriteLine($"{what}: median of {sorted.Length} paired values {F(Medians.Of(sorted))}, 95% CI [{F(low)}, {F(high)}], range [{F(sorted[0])}, {F(sorted[^1])}]");
    }

    /// <summary>
    /// The order-statistics interval for a median: the k-th smallest and k-th largest values, with k the largest for
    /// which a Binomial(n, ½) falls below k with probability at most 2.5%. No assumption about the ratios' distribution.
    /// </summary>
    private static (double Low, double High) MedianConfidenceInterval(double[] sorted)
    {
        var n = sorted.Length;
        var k = 0;
        var cumulative = 0.0;
        for (var j = 0; j < n; j++)
        {
            cumulative += Binomial(n, j) / Math.Pow(2, n);
            if (cumulative > 0.025)
            {
                break;
            }

            k = j + 1;
        }

        return k == 0 ? (double.NaN, double.NaN) : (sorted[k - 1], sorted[n - k]);
    }

    private static double Binomial(int n, int k)
    {
        var result = 1.0;
        for (var i = 1; i <= k; i++)
        {
            result = result * (n - k + i) / i;
        }

        return result;
    }

    private static async Task<Result> RunChildAsync(string variant, int handlerWorkMicros, int invocations, int latencyCalls)
    {
        var host = Environment.ProcessPath ?? throw new InvalidOperationException("The process path is unknown.");
        var start = new ProcessStartInfo(host) { RedirectStandardOutput = true, UseShellExecute = false };
        if (Path.GetFileNameWithoutExtension(host).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
        {
            start.ArgumentList.Add(typeof(GrpcCallPaired).Assembly.Location);
        }

        foreach (var argument in new[]
        {
            "grpc-profile", variant, invocations.ToString(CultureInfo.InvariantCulture),
            "--latency", latencyCalls.ToString(CultureInfo.InvariantCulture),
            "--handler-work", handlerWorkMicros.ToString(CultureInfo.InvariantCulture),
        })
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {host}.");
        var output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        var line = output.Split('\n').FirstOrDefault(l => l.StartsWith(GrpcCallProfile.ResultPrefix, StringComparison.Ordinal));
        if (process.ExitCode != 0 || line is null)
        {
            throw new InvalidOperationException($"The {variant} run exited with {process.ExitCode} and printed no result:\n{output}");
        }

        var fields = line[GrpcCallProfile.ResultPrefix.Length..].Trim().Split(' ');
        return new Result(
            double.Parse(fields[1], CultureInfo.InvariantCulture),
            double.Parse(fields[2], CultureInfo.InvariantCulture),
            double.Parse(fields[3], CultureInfo.InvariantCulture),
            double.Parse(fields[4], CultureInfo.InvariantCulture),
            double.Parse(fields[5], CultureInfo.InvariantCulture));
    }

    /// <summary>One process's figures; <see cref="CpuMicrosPerCall"/> is the process's CPU time (client and server) per call at concurrency 8.</summary>
    private readonly record struct Result(double CallsPerSecond, double P50Micros, double BytesPerCall, double LatencyBytesPerCall, double CpuMicrosPerCall);
}
