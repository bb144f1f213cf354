// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Net.Client;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.DependencyInjection;
using RateExchangeClient = Cicero.Grpc.RateExchange.Protocol.RateExchange.RateExchangeClient;

namespace Cicero.Grpc.Interop.Tests.Topology;

/// <summary>
/// entry -> middle -(3 in parallel, round robin over 2 instances)-> leaf, each leaf instance admitting a fixed C per
/// second: over the generated rate-exchange service the entry's σ follows the leaf capacity ÷ α, drops when a leaf
/// instance goes away and recovers when it comes back on the same port.
/// </summary>
public sealed class RateExchangeTests
{
    /// <summary>Each leaf instance's fixed admission rate C, requests per second.</summary>
    private const double LeafCapacity = 150;

    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    private static readonly Action<CiceroGrpcOptions> FastLoop = o => o.Core.RateAdaptation.Interval = TimeSpan.FromMilliseconds(100);

    [Fact]
    public async Task Entry_rate_follows_leaf_capacity_over_amplification_and_recovers_after_a_leaf_restart()
    {
        var leafA = await TierServers.StartLeafAsync(LeafCapacity, FastLoop);
        var leafB = await TierServers.StartLeafAsync(LeafCapacity, FastLoop);
        try
        {
            await using var middle = await TierServers.StartMiddleAsync([leafA.Address, leafB.Address], LoadBalancingConfig.RoundRobinPolicyName, FastLoop);
            await using var entry = await TierServers.StartEntryAsync(middle.Address, FastLoop);
            var entryRuntime = entry.Services.GetRequiredService<CiceroRuntime>();
            var middleRuntime = middle.Services.GetRequiredService<CiceroRuntime>();
            using var channel = GrpcChannel.ForAddress(entry.Address);
            var client = new Entry.EntryClient(channel);
            double Sigma() => entryRuntime.RateAdaptation.GetAnnouncedRate(TierServers.Workflow);
            string State() => $"entry: {Describe(entryRuntime, "middle")} | middle: {Describe(middleRuntime, "leaf")}";

            // α = 3 leaf calls per request, half to each instance: the two instances' 2C carry 2C / 3 requests per second.
            var bothInstances = 2 * LeafCapacity / MiddleService.FanOut;
            // σ is announced and enforced by the entry's admission (the rate its limiter runs at).
            double Admitted() => entryRuntime.Admission.GetProperties(TierServers.Workflow).Rate;
            Assert.True(
                await DriveUntilAsync(client, () => IsNear(Sigma(), bothInstances) && IsNear(Admitted(), bothInstances)),
                $"expected σ ≈ {bothInstances}, enforced at {Admitted():F1}; {State()}");

            // The amplification the middle measured is the fan-out. Like σ it is re-estimated every interval from the
            // calls counted in it, so a single reading is checked with a wider margin than the settled σ.
            Assert.True(middleRuntime.Model.Get(TierServers.Workflow).TryGetAmplification("leaf", out var alpha), $"the middle measured no α; {State()}");
            Assert.True(IsNear(alpha, MiddleService.FanOut, 0.2), $"the middle measured α = {alpha}; {State()}");

            // What the middle tells the entry over the generated rate-exchange service.
            using (var exchange = GrpcChannel.ForAddress(middle.Address))
            {
                var entryId = entry.Services.GetRequiredService<CiceroInstance>().Id;
                var answer = await new RateExchangeClient(exchange)
                    .GetAdmissionRatesAsync(new GetAdmissionRatesRequest { Caller = entryId }, deadline: DateTime.UtcNow.AddSeconds(10));
                var granted = Assert.Single(answer.Rates, r => r.Workflow == TierServers.Workflow);
                Assert.True(granted.HasRate && IsNear(granted.Rate, bothInstances, 0.2), $"the middle granted {granted.Rate}; {State()}");
            }

            // One instance goes away: its last answer is held, then expires, and C / 3 is left.
            var port = leafB.Port;
            await leafB.DisposeAsync();
            var oneInstance = LeafCapacity / MiddleService.FanOut;
            Assert.True(await DriveUntilAsync(client, () => IsNear(Sigma(), oneInstance)), $"expected σ ≈ {oneInstance} with one leaf; {State()}");

            // It comes back on the same port: σ returns to 2C / 3.
            leafB = await TierServers.StartLeafAsync(LeafCapacity, FastLoop, port);
            Assert.True(await DriveUntilAsync(client, () => IsNear(Sigma(), bothInstances)), $"expected σ ≈ {bothInstances} after the restart; {State()}");
        }
        finally
        {
            await leafA.DisposeAsync();
            await leafB.DisposeAsync();
        }
    }

    private static bool IsNear(double value, double expected, double tolerance = 0.1) => Math.Abs(value - expected) <= expected * tolerance;

    /// <summary>Sends requests one at a time until the condition holds for 30 requests in a row; bounded in count and time.</summary>
    private static Task<bool> DriveUntilAsync(Entry.EntryClient client, Func<bool> condition) => Eventually.HoldsAsync(
        async () =>
        {
            try
            {
                await client.HandleAsync(new WorkRequest { ServiceSeconds = 0.001, Load = 0.1 }, deadline: DateTime.UtcNow.AddSeconds(5));
            }
            catch (RpcException)
            {
                // A leaf going away fails the calls in flight to it; only the rates are asserted.
            }
        },
        condition,
        Patience,
        maxSteps: 20_000,
        stableFor: 30);

    private static string Describe(CiceroRuntime runtime, string downstream)
    {
        var rates = runtime.RateAdaptation;
        runtime.Model.Get(TierServers.Workflow).TryGetAmplification(downstream, out var alpha);
        return $"σ={rates.GetAnnouncedRate(TierServers.Workflow):F1} σ'={rates.GetDownstreamRate(TierServers.Workflow):F1} α={alpha:F2} " +
            $"status={rates.GetDownstreamStatus(downstream)} steps={rates.Steps} error={rates.LastError?.Message}";
    }
}
