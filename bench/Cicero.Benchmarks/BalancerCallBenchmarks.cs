// SPDX-License-Identifier: Apache-2.0

using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Configs;
using Cicero.Benchmarks.Protocol;
using Cicero.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.LoadBalancing;
using Cicero.Policies.ReplicaSelection;
using Cicero.Runtime;
using Google.Protobuf;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Grpc.Net.Client.Configuration;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Benchmarks;

/// <summary>
/// Cicero's <c>c3</c> load-balancing policy against grpc-dotnet's <c>round_robin</c> on the same three servers: one
/// <see cref="GrpcChannel"/> per policy, addressed <c>static:///bench</c> through grpc-dotnet's
/// <see cref="StaticResolverFactory"/>, whose <see cref="GrpcChannelOptions.ServiceProvider"/> holds
/// <c>AddCiceroLoadBalancing()</c>; the only difference between the channels is
/// <c>new LoadBalancingConfig("c3")</c> against <c>new LoadBalancingConfig("round_robin")</c>.
/// </summary>
/// <remarks>
/// <para>
/// By default the three servers are plain grpc-dotnet servers and the channels have no interceptor: the row measures
/// the balancer alone (c3 then learns response times and outstanding counts, not the servers' feedback). With
/// <see cref="WithCicero"/> (variants <c>round_robin+cicero</c>, <c>c3+cicero</c>, ...) the servers run
/// <c>AddCicero</c>, every channel carries <see cref="CiceroClientInterceptor"/> and every call is made inside a Cicero
/// request, so c3 also gets each call's trailer feedback, as in a service that uses <c>AddCiceroDownstream</c>.
/// </para>
/// <para>
/// <c>c3</c> is the policy as <c>AddCiceroLoadBalancing()</c> registers it, C3's cubic rate control included, which
/// limits how fast one client may send to each replica (10 requests per 20 ms window to start with). A benchmark
/// client that sends as fast as it can is exactly what that control throttles, so <c>c3-unlimited</c> (the same policy
/// with a limit no client reaches) separates the balancer's own cost per call from the throttling.
/// </para>
/// <para>
/// Set-up checks that each policy sends calls to all three servers. Rows as in <see cref="GrpcCallBenchmarks"/>: latency
/// one call at a time, throughput 8 concurrent loops with the time per call.
/// </para>
/// </remarks>
[MemoryDiagnoser]
[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]
[CategoriesColumn]
public class BalancerCallBenchmarks
{
    /// <summary>The policies <see cref="SetupAsync"/> knows.</summary>
    internal static readonly string[] Policies = ["round_robin", "c3", "c3-unlimited"];

    /// <summary>The variants <see cref="GrpcCallProfile"/> knows: a policy, alone or with <c>+cicero</c>.</summary>
    internal static readonly string[] Variants = [.. Policies, .. Policies.Select(p => p + "+cicero")];

    private const int Servers = 3;
    private const int CheckCalls = 300;
    private static readonly EchoRequest Request = new() { Payload = ByteString.CopyFromUtf8("ping") };

    private readonly List<WebApplication> _servers = [];
    private readonly List<EchoServerSettings> _settings = [];
    private readonly List<GrpcChannel> _channels = [];
    private readonly Dictionary<string, Echo.EchoClient> _clients = [];
    private readonly List<ServiceProvider> _clientServices = [];
    private CiceroRuntime _clientRuntime = null!;

    /// <summary>Gets or sets a value indicating whether servers and channels run Cicero (see the remarks).</summary>
    internal bool WithCicero { get; set; }

    /// <summary>Starts the servers and both channels (BenchmarkDotNet).</summary>
    [GlobalSetup]
    public Task Setup() => SetupAsync(null);

    [GlobalCleanup]
    public async Task Cleanup()
    {
        foreach (var channel in _channels)
        {
            channel.Dispose();
        }

        foreach (var services in _clientServices)
        {
            await services.DisposeAsync();
        }

        _clientRuntime.Dispose();
        foreach (var server in _servers)
        {
            await BenchServers.StopAsync(server);
        }
    }

    /// <summary>
    /// Starts the three servers and the channel of <paramref name="policy"/> (every policy's when <see langword="null"/>).
    /// </summary>
    /// <param name="policy">
    /// <c>round_robin</c>; <c>c3</c> from <c>AddCiceroLoadBalancing()</c> (C3's defaults, cubic rate control included);
    /// or <c>c3-unlimited</c>, the same policy with a rate limit no client reaches (initial rate and bucket 10⁹ per
    /// window), so that only the balancer's own work per call remains.
    /// </param>
    internal async Task SetupAsync(string? policy)
    {
        if (policy is not null && !Policies.Contains(policy))
        {
            throw new ArgumentException($"Unknown policy '{policy}'; use {string.Join(", ", Policies)}.", nameof(policy));
        }

        _clientRuntime = new CiceroRuntime();
        var addresses = new List<BalancerAddress>();
        for (var i = 0; i < Servers; i++)
        {
            var settings = new EchoServerSettings(TimeSpan.Zero, countCalls: true);
            var (app, address) = await BenchServers.StartAsync(WithCicero, settings);
            _servers.Add(app);
            _settings.Add(settings);
            addresses.Add(new BalancerAddress(address.Host, address.Port));
        }

        foreach (var name in policy is null ? Policies : [policy])
        {
            var services = new ServiceCollection();
            if (name == "c3-unlimited")
            {
                services.AddSingleton<LoadBalancerFactory>(ReplicaSelectorBalancerFactory.C3(new C3Options { Rate = { InitialRate = 1e9, MaxTokens = 1e9 } }));
            }
            else
            {
                services.AddCiceroLoadBalancing();
            }

            services.AddSingleton<ResolverFactory>(new StaticResolverFactory(_ => addresses));
            var provider = services.BuildServiceProvider();
            _clientServices.Add(provider);
            _clients[name] = await OpenAsync(name, provider);
        }
    }

    [BenchmarkCategory("Latency")]
    [Benchmark(Baseline = true, Description = "Latency: round_robin over 3 servers (baseline)")]
    public Task RoundRobinCall() => CallAsync(_clients["round_robin"]);

    [BenchmarkCategory("Latency")]
    [Benchmark(Description = "Latency: c3 over 3 servers")]
    public Task C3Call() => CallAsync(_clients["c3"]);

    [BenchmarkCategory("Latency")]
    [Benchmark(Description = "Latency: c3 without its rate limit over 3 servers")]
    public Task C3UnlimitedCall() => CallAsync(_clients["c3-unlimited"]);

    [BenchmarkCategory("Throughput")]
    [Benchmark(Baseline = true, OperationsPerInvoke = GrpcCallBenchmarks.CallsPerInvoke, Description = "Throughput: round_robin, 8 concurrent loops (baseline)")]
    public Task RoundRobinConcurrent() => RunConcurrentAsync(_clients["round_robin"]);

    [BenchmarkCategory("Throughput")]
    [Benchmark(OperationsPerInvoke = GrpcCallBenchmarks.CallsPerInvoke, Description = "Throughput: c3, 8 concurrent loops")]
    public Task C3Concurrent() => RunConcurrentAsync(_clients["c3"]);

    [BenchmarkCategory("Throughput")]
    [Benchmark(OperationsPerInvoke = GrpcCallBenchmarks.CallsPerInvoke, Description = "Throughput: c3 without its rate limit, 8 concurrent loops")]
    public Task C3UnlimitedConcurrent() => RunConcurrentAsync(_clients["c3-unlimited"]);

    /// <summary>One call through the channel of <paramref name="policy"/>.</summary>
    internal Func<Task> Call(string policy)
    {
        var client = Client(policy);
        return () => CallAsync(client);
    }

    /// <summary><see cref="GrpcCallBenchmarks.CallsPerInvoke"/> calls in 8 loops through the channel of <paramref name="policy"/>.</summary>
    internal Func<Task> Concurrent(string policy)
    {
        var client = Client(policy);
        return () => RunConcurrentAsync(client);
    }

    private Echo.EchoClient Client(string policy) => _clients.TryGetValue(policy, out var client)
        ? client
        : throw new InvalidOperationException($"The {policy} channel was not set up.");

    private async Task<Echo.EchoClient> OpenAsync(string policy, IServiceProvider services)
    {
        var channel = GrpcChannel.ForAddress("static:///bench", new GrpcChannelOptions
        {
            Credentials = ChannelCredentials.Insecure,
            ServiceProvider = services,
            ServiceConfig = new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig(policy == "c3-unlimited" ? "c3" : policy) } },
        });
        _channels.Add(channel);
        await channel.ConnectAsync();
        var client = new Echo.EchoClient(WithCicero
            ? channel.Intercept(new CiceroClientInterceptor(_clientRuntime, BenchServers.ServiceName, "bench-client"))
            : channel.CreateCallInvoker());
        await CheckSpreadAsync(policy, client);
        return client;
    }

    /// <summary>Fails the run unless the policy's calls reach every server (all ready, none starved).</summary>
    private async Task CheckSpreadAsync(string policy, Echo.EchoClient client)
    {
        var before = _settings.Select(s => s.Calls).ToArray();
        for (var i = 0; i < CheckCalls / GrpcCallBenchmarks.Concurrency; i++)
        {
            await Task.WhenAll(Enumerable.Range(0, GrpcCallBenchmarks.Concurrency).Select(_ => CallAsync(client)));
        }

        var served = _settings.Select((s, i) => s.Calls - before[i]).ToArray();
        if (served.Any(n => n == 0))
        {
            throw new InvalidOperationException($"{policy} left a server without calls: {string.Join(", ", served)}.");
        }
    }

    // The same async shape for both policies; with Cicero each call runs inside its own request, as a handler's would.
    private async Task CallAsync(Echo.EchoClient client)
    {
        if (WithCicero)
        {
            CiceroContext.Current = _clientRuntime.StartRequest(BenchServers.Workflow);
        }

        await client.EchoAsync(Request).ResponseAsync.ConfigureAwait(false);
    }

    private Task RunConcurrentAsync(Echo.EchoClient client)
    {
        var loops = new Task[GrpcCallBenchmarks.Concurrency];
        for (var i = 0; i < loops.Length; i++)
        {
            loops[i] = LoopAsync(client);
        }

        return Task.WhenAll(loops);
    }

    private async Task LoopAsync(Echo.EchoClient client)
    {
        await Task.Yield();
        for (var i = 0; i < GrpcCallBenchmarks.CallsPerInvoke / GrpcCallBenchmarks.Concurrency; i++)
        {
            await CallAsync(client).ConfigureAwait(false);
        }
    }
}
