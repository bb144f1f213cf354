// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text.Json;

namespace Cicero.Benchmarks.Outcome;

/// <summary>One configuration of the harness: the replicas and the client's shape.</summary>
internal sealed record OutcomeConfiguration(string Name, string Description, Func<OutcomeReplica[]> Replicas, int Callers = 16, int FanOut = 1, bool Slowdown = false);

/// <summary>One variant's figures in one repetition.</summary>
internal sealed record OutcomeRun(string Configuration, string Variant, int Repetition, OutcomeClientResult Result, double? MovedAwayMs = null, double? CameBackMs = null);

/// <summary>
/// <c>balancer-outcome</c>: replica selection measured live. N Grpc.AspNetCore servers on 127.0.0.1 (Cicero's server
/// interceptor on each), one fresh client process per variant over the same servers, variants alternated over
/// repetitions, closed loop or (with a rate) open loop; p50/p99/p999, throughput, share per replica, errors and stuck
/// calls, ratios to round_robin with 95% confidence intervals over repetitions. Configurations A-D are issue 35's, F the fan-out storefront, S the C3 paper's
/// slowdown (one replica 10x slower for 10 s mid-run).
/// </summary>
internal static class BalancerOutcome
{
    public static readonly OutcomeConfiguration[] Configurations =
    [
        new("A", "1, 1, 10 ms, unlimited concurrency", () => [new(0, 1), new(1, 1), new(2, 10)]),
        new("B", "5, 5, 50 ms, unlimited concurrency", () => [new(0, 5), new(1, 5), new(2, 50)]),
        new("C", "1, 1, 1 ms, the third 50 ms on 20% of calls", () => [new(0, 1), new(1, 1), new(2, 1, 0.2, 50)]),
        new("D", "5, 5, 50 ms, 4 slots per server", () => [new(0, 5, Slots: 4), new(1, 5, Slots: 4), new(2, 50, Slots: 4)]),
        new("F", "fan-out storefront: 1 caller, 3 calls per page in a ParallelCalls scope, 1, 1, 10 ms", () => [new(0, 1), new(1, 1), new(2, 10)], Callers: 1, FanOut: 3),
        new("S", "slowdown: 2, 2, 2 ms, the third 10x slower from 6 s to 16 s", () => [new(0, 2), new(1, 2), new(2, 2)], Slowdown: true),
    ];

    private const int SlowStartMs = 6_000;
    private const int SlowEndMs = 16_000;
    private const int SlowdownRunMs = 22_000;

    public static async Task RunAsync(string[] configurations, string[] variants, int repetitions, int calls, int warmup, bool interceptor, bool json, int rate = 0)
    {
        var runs = new List<OutcomeRun>();
        foreach (var configuration in Configurations.Where(c => configurations.Contains(c.Name, StringComparer.OrdinalIgnoreCase)))
        {
            var replicas = configuration.Replicas();
            var servers = new List<Microsoft.AspNetCore.Builder.WebApplication>();
            var addresses = new List<string>();
            foreach (var replica in replicas)
            {
                var (app, address) = await OutcomeServers.StartAsync(replica);
                servers.Add(app);
                addresses.Add(address.ToString());
            }

            try
            {
                for (var rep = 0; rep < repetitions; rep++)
                {
                    // Alternate the order: each variant runs first, middle and last in turn, so drift on a shared machine spreads evenly.
                    var order = variants.Skip(rep % variants.Length).Concat(variants.Take(rep % variants.Length));
                    foreach (var variant in order)
                    {
                        var pageCalls = configuration.FanOut > 1 ? calls / 5 : calls;
                        var plan = new OutcomeClientPlan([.. addresses], variant, interceptor, configuration.Callers, pageCalls, warmup / configuration.FanOut, configuration.FanOut, configuration.Slowdown ? SlowdownRunMs : 0, rate);
                        var run = configuration.Slowdown ? await SlowdownAsync(configuration, replicas[^1], plan, variant, rep) : new OutcomeRun(configuration.Name, variant, rep, await OutcomeClient.SpawnAsync(plan));
                        runs.Add(run);
                        Console.Error.WriteLine(Line(run));
                    }
                }
            }
            finally
            {
                foreach (var app in servers)
                {
                    await BenchServers.StopAsync(app);
                }
            }
        }

        var load = File.Exists("/proc/loadavg") ? (await File.ReadAllTextAsync("/proc/loadavg")).Trim() : "n/a";
        if (json)
        {
            Console.WriteLine(JsonSerializer.Serialize(new { load, interceptor, rate, calls, warmup, repetitions, runs = runs.Select(r => new { r.Configuration, r.Variant, r.Repetition, r.Result.P50Ms, r.Result.P99Ms, r.Result.P999Ms, r.Result.CallsPerSecond, r.Result.PerReplica, r.Result.Errors, r.Result.Stuck, r.MovedAwayMs, r.CameBackMs }) }));
            return;
        }

        Console.WriteLine($"load average at the end: {load}; interceptor: {interceptor}; {(rate > 0 ? $"open loop, {rate} pages/s" : "closed loop")}; {calls} calls after {warmup} warm-up, {repetitions} repetitions");
        OutcomeSummary.Print(runs, variants);
    }

    private static async Task<OutcomeRun> SlowdownAsync(OutcomeConfiguration configuration, OutcomeReplica slowed, OutcomeClientPlan plan, string variant, int rep)
    {
        var client = OutcomeClient.SpawnAsync(plan);

        // The client reports when it started; the slow phase is timed from the spawn and placed on its timeline after.
        var spawned = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        await Task.Delay(SlowStartMs);
        slowed.Slowdown = 10;
        var slowFrom = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        await Task.Delay(SlowEndMs - SlowStartMs);
        slowed.Slowdown = 1;
        var slowTo = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
        var result = await client;
        _ = spawned;
        var share = result.Timeline.Select(b => b.Sum() == 0 ? double.NaN : (double)b[^1] / b.Sum()).ToArray();
        int Bucket(long unixMs) => (int)((unixMs - result.StartUnixMs) / OutcomeClient.BucketMs);
        double? FirstAfter(long from, Func<double, bool> test)
        {
            for (var b = Math.Max(0, Bucket(from)); b < share.Length; b++)
            {
                if (!double.IsNaN(share[b]) && test(share[b]))
                {
                    return ((b + 1) * OutcomeClient.BucketMs) - (from - result.StartUnixMs);
                }
            }

            return null;
        }

        // Moved away: the first 100 ms bucket in which the slowed replica gets under a tenth of the calls; back: the
        // first in which it gets a fifth again (a third is its fair share). Times are to the bucket's end.
        return new OutcomeRun(configuration.Name, variant, rep, result, FirstAfter(slowFrom, s => s < 0.1), FirstAfter(slowTo, s => s >= 0.2));
    }

    private static string Line(OutcomeRun run) => string.Create(
        CultureInfo.InvariantCulture,
        $"{run.Configuration} rep {run.Repetition} {run.Variant,-18} p50 {run.Result.P50Ms,7:F2} p99 {run.Result.P99Ms,7:F2} p999 {run.Result.P999Ms,7:F2} ms, {run.Result.CallsPerSecond,7:F0}/s, shares {string.Join('/', run.Result.PerReplica)}, errors {run.Result.Errors}, stuck {run.Result.Stuck}{(run.MovedAwayMs is null && run.CameBackMs is null ? string.Empty : $", away {run.MovedAwayMs?.ToString("F0", CultureInfo.InvariantCulture) ?? "never"} ms, back {run.CameBackMs?.ToString("F0", CultureInfo.InvariantCulture) ?? "never"} ms")}");
}
