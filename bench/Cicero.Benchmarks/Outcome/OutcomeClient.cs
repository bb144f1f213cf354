// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using Cicero.Benchmarks.Protocol;
using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.Client;
using Cicero.Runtime;
using Cicero.Workflows;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Benchmarks.Outcome;

/// <summary>What one client process is asked to do: a policy over the replicas, closed loop, counted or timed.</summary>
internal sealed record OutcomeClientPlan(
    string[] Addresses,
    string Policy,
    bool Interceptor,
    int Callers,
    int Calls,
    int Warmup,
    int FanOut,
    int DurationMs,
    int RatePerSecond = 0);

/// <summary>What one client process measured.</summary>
internal sealed record OutcomeClientResult(
    double P50Ms,
    double P99Ms,
    double P999Ms,
    double CallsPerSecond,
    long[] PerReplica,
    int Errors,
    int Stuck,
    long StartUnixMs,
    int[][] Timeline);

/// <summary>
/// The client side of <c>balancer-outcome</c>, run as its own process per variant: one <see cref="GrpcChannel"/> over
/// the replicas with the named policy (grpc-dotnet's <c>round_robin</c> or a Cicero policy registered by
/// <c>AddCiceroLoadBalancing</c>), optionally behind <see cref="CiceroClientInterceptor"/>, and closed-loop callers or
/// open-loop arrivals. A fan-out page is one Cicero request whose calls run in a <see cref="ParallelCalls"/> scope, as a
/// storefront's handler would make them.
/// </summary>
internal static class OutcomeClient
{
    /// <summary>The bucket of the timeline (calls per replica per bucket), for the slowdown scenario.</summary>
    public const int BucketMs = 100;

    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    public static async Task RunAsync(string planJson)
    {
        var plan = JsonSerializer.Deserialize<OutcomeClientPlan>(planJson)!;
        var services = new ServiceCollection().AddCiceroLoadBalancing();
        var addresses = plan.Addresses.Select(a => new Uri(a)).Select(u => new BalancerAddress(u.Host, u.Port)).ToArray();
        services.AddSingleton<ResolverFactory>(new StaticResolverFactory(_ => addresses));
        await using var provider = services.BuildServiceProvider();
        using var channel = GrpcChannel.ForAddress("static:///catalog", new GrpcChannelOptions
        {
            ServiceProvider = provider,
            Credentials = ChannelCredentials.Insecure,
            ServiceConfig = new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig(plan.Policy) } },
        });
        using var runtime = new CiceroRuntime();
        var invoker = plan.Interceptor ? channel.Intercept(new CiceroClientInterceptor(runtime, "catalog", "outcome-client")) : channel.CreateCallInvoker();
        var client = new Echo.EchoClient(invoker);
        var run = new Run(plan, client, plan.Addresses.Length, runtime);
        await run.ExecuteAsync();
        Console.WriteLine(JsonSerializer.Serialize(run.Result()));
    }

    private sealed class Run(OutcomeClientPlan plan, Echo.EchoClient client, int replicas, CiceroRuntime runtime)
    {
        private static readonly WorkflowId Page = new("page");
        private readonly List<double>[] _latencies = [.. Enumerable.Range(0, plan.Callers).Select(_ => new List<double>())];
        private readonly long[] _perReplica = new long[replicas];
        private readonly List<int[]> _timeline = [];
        private readonly Lock _timelineLock = new();
        private int _issued;
        private int _errors;
        private int _stuck;
        private long _start;
        private long _measuredStart;
        private long _measuredEnd;
        private long _startUnixMs;

        public async Task ExecuteAsync()
        {
            _start = Stopwatch.GetTimestamp();
            _startUnixMs = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
            _measuredStart = plan.DurationMs > 0 ? _start : 0;
            await (plan.RatePerSecond > 0
                ? Task.Run(OpenLoopAsync)
                : Task.WhenAll(Enumerable.Range(0, plan.Callers).Select(c => Task.Run(() => CallerAsync(c)))));
            _measuredEnd = Stopwatch.GetTimestamp();
        }

        public OutcomeClientResult Result()
        {
            var all = _latencies.SelectMany(l => l).Order().ToArray();
            double At(double q) => all.Length == 0 ? double.NaN : all[Math.Min(all.Length - 1, (int)Math.Ceiling(q * all.Length) - 1)];
            var seconds = Stopwatch.GetElapsedTime(_measuredStart, _measuredEnd).TotalSeconds;
            return new OutcomeClientResult(At(0.5), At(0.99), At(0.999), all.Length * plan.FanOut / seconds, _perReplica, _errors, _stuck, _startUnixMs, [.. _timeline]);
        }

        private async Task CallerAsync(int caller)
        {
            while (true)
            {
                var n = Interlocked.Increment(ref _issued);
                if (Done(n))
                {
                    return;
                }

                await PageAsync(n, caller, Stopwatch.GetTimestamp()).ConfigureAwait(false);
            }
        }

        /// <summary>
        /// Open loop: pages arrive at exponentially spaced times at the planned rate whatever the answers, and each
        /// page's latency counts from its planned arrival, so a stalled client does not hide its own queue.
        /// </summary>
        private async Task OpenLoopAsync()
        {
            var random = new Random(35);
            var ticksPerArrival = Stopwatch.Frequency / (double)plan.RatePerSecond;
            var next = (double)_start;
            var pages = new List<Task>();
            while (true)
            {
                while (Stopwatch.GetTimestamp() >= next)
                {
                    var n = Interlocked.Increment(ref _issued);
                    if (Done(n))
                    {
                        await Task.WhenAll(pages).ConfigureAwait(false);
                        return;
                    }

                    pages.Add(PageAsync(n, n % plan.Callers, (long)next));
                    next += -Math.Log(1 - random.NextDouble()) * ticksPerArrival;
                }

                await Task.Delay(1).ConfigureAwait(false);
            }
        }

        private bool Done(int n) => plan.DurationMs > 0 ? Stopwatch.GetElapsedTime(_start).TotalMilliseconds >= plan.DurationMs : n > plan.Warmup + plan.Calls;

        private async Task PageAsync(int n, int caller, long begin)
        {
            var timed = plan.DurationMs > 0;
            if (!timed && n == plan.Warmup + 1)
            {
                Interlocked.CompareExchange(ref _measuredStart, Stopwatch.GetTimestamp(), 0);
            }

            var pending = new Task<int>[plan.FanOut];
            if (plan.FanOut > 1)
            {
                // A page is one request of the storefront: its calls join as one parallel fan-out.
                CiceroContext.Current = runtime.StartRequest(Page, Deadline);
                using (ParallelCalls.Begin())
                {
                    for (var i = 0; i < plan.FanOut; i++)
                    {
                        pending[i] = CallAsync();
                    }

                    await Task.WhenAll(pending).ConfigureAwait(false);
                }
            }
            else
            {
                pending[0] = CallAsync();
            }

            var ok = true;
            foreach (var call in pending)
            {
                var replica = await call.ConfigureAwait(false);
                if (replica < 0)
                {
                    ok = false;
                    continue;
                }

                if (timed || n > plan.Warmup)
                {
                    Interlocked.Increment(ref _perReplica[replica]);
                    if (timed)
                    {
                        Record(replica);
                    }
                }
            }

            if (ok && (timed || n > plan.Warmup))
            {
                var list = _latencies[caller];
                lock (list)
                {
                    list.Add(Stopwatch.GetElapsedTime(begin).TotalMilliseconds);
                }
            }
        }

        private async Task<int> CallAsync()
        {
            try
            {
                var reply = await client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.Add(Deadline)).ConfigureAwait(false);
                return reply.Payload[0];
            }
            catch (RpcException ex)
            {
                Interlocked.Increment(ref ex.StatusCode == StatusCode.DeadlineExceeded ? ref _stuck : ref _errors);
                return -1;
            }
        }

        private void Record(int replica)
        {
            var bucket = (int)(Stopwatch.GetElapsedTime(_start).TotalMilliseconds / BucketMs);
            lock (_timelineLock)
            {
                while (_timeline.Count <= bucket)
                {
                    _timeline.Add(new int[_perReplica.Length]);
                }

                _timeline[bucket][replica]++;
            }
        }
    }

    /// <summary>Starts the client process for a plan and reads its result.</summary>
    public static async Task<OutcomeClientResult> SpawnAsync(OutcomeClientPlan plan)
    {
        var info = new ProcessStartInfo(Environment.ProcessPath!)
        {
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        var entry = Environment.GetCommandLineArgs()[0];
        if (entry.EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
        {
            info.ArgumentList.Add(entry);
        }

        info.ArgumentList.Add("balancer-outcome-client");
        info.ArgumentList.Add(JsonSerializer.Serialize(plan));
        using var process = Process.Start(info)!;
        var output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        var line = output.Split('\n', StringSplitOptions.RemoveEmptyEntries).LastOrDefault()
            ?? throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture, $"The client process for {plan.Policy} printed nothing (exit code {process.ExitCode})."));
        return JsonSerializer.Deserialize<OutcomeClientResult>(line)!;
    }
}
