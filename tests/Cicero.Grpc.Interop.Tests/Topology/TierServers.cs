// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.RateExchange;
using Cicero.Policies.RateLimiting;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.Topology;

/// <summary>
/// Starts the tiers of entry -> middle -> leaf. Each adopts Cicero in the lines marked "Cicero": the rest is what any
/// grpc-dotnet service has (its client, its <c>MapGrpcService</c>) or test tuning passed in by the test.
/// </summary>
public static class TierServers
{
    /// <summary>The workflow the entry puts every external request in.</summary>
    public const string Workflow = "tenant-a";

    /// <summary>Starts a leaf instance.</summary>
    /// <param name="capacity">Its fixed admission rate per workflow (the <c>static</c> policy), or +∞ for none.</param>
    /// <param name="tune">Test tuning of the options (intervals).</param>
    /// <param name="port">The port; 0 for a free one.</param>
    /// <returns>The server.</returns>
    public static Task<TestServer> StartLeafAsync(double capacity = double.PositiveInfinity, Action<CiceroGrpcOptions>? tune = null, int port = 0) => TestServer.StartAsync(
        services =>
        {
            services.AddCicero(o => { o.ServiceName = "leaf"; o.IsEntryPoint = false; tune?.Invoke(o); }) // Cicero
                .ConfigurePolicies(p => p.ReplaceRateLimitPolicy(StaticRatePolicy.CreateFactory(new StaticRateOptions { DefaultRate = capacity }))) // Cicero
                .UseRateLimitPolicy(RateLimitPolicies.Static); // Cicero
        },
        app =>
        {
            app.MapGrpcService<LeafService>();
            app.MapCiceroRateExchange(); // Cicero
        },
        port);

    /// <summary>Starts the middle tier over leaf instances.</summary>
    /// <param name="leaves">The leaf instances.</param>
    /// <param name="loadBalancingPolicy">How the middle balances its leaf calls.</param>
    /// <param name="tune">Test tuning of the options (intervals).</param>
    /// <returns>The server.</returns>
    public static Task<TestServer> StartMiddleAsync(IEnumerable<Uri> leaves, string loadBalancingPolicy = "c3", Action<CiceroGrpcOptions>? tune = null) => TestServer.StartAsync(
        services =>
        {
            services.AddCicero(o => { o.ServiceName = "middle"; o.IsEntryPoint = false; tune?.Invoke(o); }) // Cicero
                .AddDownstream("leaf", leaves.Select(a => a.ToString()), loadBalancingPolicy); // Cicero
            services.AddGrpcClient<Leaf.LeafClient>()
                .AddCiceroDownstream("leaf") // Cicero
                .ConfigureChannel(c => c.MaxReconnectBackoff = TimeSpan.FromMilliseconds(200)); // test tuning: a restarted leaf is found fast
        },
        app =>
        {
            app.MapGrpcService<MiddleService>();
            app.MapCiceroRateExchange(); // Cicero
        });

    /// <summary>Starts the entry tier over one middle instance; every request is in <see cref="Workflow"/>.</summary>
    /// <param name="middle">The middle instance.</param>
    /// <param name="tune">Test tuning of the options (intervals).</param>
    /// <returns>The server.</returns>
    public static Task<TestServer> StartEntryAsync(Uri middle, Action<CiceroGrpcOptions>? tune = null) => TestServer.StartAsync(
        services =>
        {
            services.AddCicero(o => { o.ServiceName = "entry"; o.Classifier = Classification.WorkflowClassifiers.Fixed(Workflow); tune?.Invoke(o); }) // Cicero
                .AddDownstream("middle", [middle.ToString()]); // Cicero
            services.AddGrpcClient<Middle.MiddleClient>().AddCiceroDownstream("middle"); // Cicero
        },
        app => app.MapGrpcService<EntryService>());
}
