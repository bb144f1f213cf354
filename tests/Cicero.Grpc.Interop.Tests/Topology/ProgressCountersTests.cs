// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.Grpc.Interop.Tests.Protos;
using Grpc.Net.Client;

namespace Cicero.Grpc.Interop.Tests.Topology;

/// <summary>
/// A request crosses entry -> middle -> leaf (three grpc-dotnet services, each adopting Cicero in a few lines) and comes
/// back with the progress counters b computed by hand from what each hop recorded (dissertation section 5.2.4).
/// </summary>
public sealed class ProgressCountersTests
{
    [Theory]
    [InlineData(false, 0.026)]
    [InlineData(true, 0.066)]
    public Task Request_across_three_tiers_returns_the_hand_computed_progress_counters(bool sequential, double expectedServiceSeconds) =>
        CrossThreeTiersAsync(sequential, expectedServiceSeconds, withDeadline: true);

    [Fact]
    public Task Request_without_a_deadline_crosses_three_tiers_with_the_same_counters() =>
        CrossThreeTiersAsync(sequential: false, expectedServiceSeconds: 0.026, withDeadline: false);

    private static async Task CrossThreeTiersAsync(bool sequential, double expectedServiceSeconds, bool withDeadline)
    {
        await using var leaf = await TierServers.StartLeafAsync();
        await using var middle = await TierServers.StartMiddleAsync([leaf.Address]);
        await using var entry = await TierServers.StartEntryAsync(middle.Address);
        using var channel = GrpcChannel.ForAddress(entry.Address);
        var client = new Entry.EntryClient(channel);

        using var call = client.HandleAsync(
            new WorkRequest { ServiceSeconds = 0.010, Load = 0.5, Sequential = sequential },
            deadline: withDeadline ? DateTime.UtcNow.AddSeconds(30) : null);
        var reply = await call.ResponseAsync;

        // Leaf branch i (1-3) records (0.010 i s, 0.5 i). In parallel the three join as their mean service time and
        // their summed load: (0.020, 3.0); one after another both add: (0.060, 3.0). The middle adds its own
        // (0.005, 0.25), the entry its own (0.001, 0.1): b = (0.026, 3.35) in parallel, (0.066, 3.35) in sequence.
        const double expectedLoad = 3.35;
        Assert.Equal(expectedServiceSeconds, reply.ServiceSeconds, 1e-6);
        Assert.Equal(expectedLoad, reply.Load, 1e-6);

        // The entry's trailer reports the same b to its caller (single precision on the wire).
        Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var result));
        Assert.Equal(expectedServiceSeconds, result.Progress.ServiceTime, 1e-6);
        Assert.Equal(expectedLoad, result.Progress.Load, 1e-6);
    }
}
