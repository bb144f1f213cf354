// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.Interop.Tests.Topology;
using Cicero.Grpc.RateExchange;
using Grpc.Core;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.StatusTable;

/// <summary>
/// The status table of docs/grpc-integration.md (and STATUS-TABLE.md beside this project), row by row: what a caller
/// gets back when Cicero turns a call away, and what it never gets.
/// </summary>
public sealed class StatusTableTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task Rate_limited_is_resource_exhausted_rate_limited()
    {
        var state = new ProbeState();

        // One request per second, one token in the bucket, no queue: the second call in the same second is refused.
        await using var server = await CiceroProbeServer.StartAsync(state, o =>
        {
            o.Classifier = WorkflowClassifiers.Fixed("capped");
            o.Core.Admission.InitialRate = 1;
            o.Core.Admission.QueueLimit = 0;
        });
        using var channel = GrpcChannel.ForAddress(server.Address);
        var client = new Probe.ProbeClient(channel);

        var refusals = new List<RpcException>();
        for (var i = 0; i < 3; i++)
        {
            try
            {
                await client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(10));
            }
            catch (RpcException ex)
            {
                refusals.Add(ex);
            }
        }

        Assert.NotEmpty(refusals);
        Assert.All(refusals, ex => AssertDropped(ex, StatusCode.ResourceExhausted, "rate_limited"));
        Assert.Equal(3 - refusals.Count, state.Calls);
    }

    [Fact]
    public async Task Queue_full_is_resource_exhausted_queue_full()
    {
        var state = new ProbeState();
        await using var server = await CiceroProbeServer.StartAsync(state, build: b => b.AddResource(ProbeService.Resource, capacity: 1, maxQueueLength: 0));
        using var channel = GrpcChannel.ForAddress(server.Address);
        var client = new Probe.ProbeClient(channel);

        // The first call holds the only permit; with no room to wait, the second is refused by the resource.
        using var holder = client.GuardedAsync(new HoldRequest(), deadline: DateTime.UtcNow.AddSeconds(30));
        Assert.True(await state.GuardedAcquired.WaitAsync(Patience), "the first call never got the permit");

        var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.GuardedAsync(new HoldRequest(), deadline: DateTime.UtcNow.AddSeconds(30)));
        AssertDropped(ex, StatusCode.ResourceExhausted, "queue_full");

        state.ReleaseGuarded.SetResult();
        await holder.ResponseAsync;
    }

    [Fact]
    public async Task Downstream_dropped_is_resource_exhausted_downstream_dropped()
    {
        await using var leaf = await StartRefusingLeafAsync();
        await using var middle = await TierServers.StartMiddleAsync([leaf.Address]);
        using var channel = GrpcChannel.ForAddress(middle.Address);

        // The leaf refuses the middle's calls; the middle's handler lets the RpcException escape.
        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
            await new Middle.MiddleClient(channel).HandleAsync(new WorkRequest(), deadline: DateTime.UtcNow.AddSeconds(30)));

        AssertDropped(ex, StatusCode.ResourceExhausted, "downstream_dropped");
        Assert.Contains("policy", ex.Status.Detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Operator_policy_is_resource_exhausted_policy()
    {
        await using var leaf = await StartRefusingLeafAsync();
        using var channel = GrpcChannel.ForAddress(leaf.Address);

        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
            await new Leaf.LeafClient(channel).HandleAsync(new WorkRequest(), deadline: DateTime.UtcNow.AddSeconds(30)));

        AssertDropped(ex, StatusCode.ResourceExhausted, "policy");
    }

    [Fact]
    public async Task Deadline_passed_on_arrival_is_deadline_exceeded_deadline_expired()
    {
        var state = new ProbeState();
        await using var server = await CiceroProbeServer.StartAsync(state);

        // The call leaves with a timeout of one microsecond (grpc-timeout: 1u): it has passed when Cicero sees it.
        // The client itself sets no deadline, so what comes back is the server's answer.
        using var channel = GrpcChannel.ForAddress(server.Address, new GrpcChannelOptions
        {
            HttpHandler = new WireTap(request => request.Headers.TryAddWithoutValidation("grpc-timeout", "1u")),
            DisposeHttpClient = true,
        });
        var client = new Probe.ProbeClient(channel);

        // grpc-dotnet's own deadline timer fires 14 ms after the deadline and then answers DEADLINE_EXCEEDED without
        // Cicero's trailer; on a starved machine it can win that race, so up to three attempts are made.
        var reasons = new List<string?>();
        for (var attempt = 0; attempt < 3 && !reasons.Contains("deadline_expired"); attempt++)
        {
            var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.EchoAsync(new EchoRequest()));
            Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
            reasons.Add(ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        }

        Assert.Contains("deadline_expired", reasons);
        Assert.Equal(0, state.Calls);
    }

    [Theory]
    [InlineData("deadline-feasibility")]
    [InlineData("never")]
    public async Task Propagated_context_past_its_deadline_is_deadline_exceeded_deadline_expired(string dropPolicy)
    {
        var state = new ProbeState();
        await using var server = await CiceroProbeServer.StartAsync(state, o =>
        {
            o.IsEntryPoint = false;
            o.DropPolicy = dropPolicy;
        });
        using var channel = GrpcChannel.ForAddress(server.Address);

        // A caller inside the mesh forwards a request that started 2 s ago with a deadline δ of 1 s.
        var clock = TimeProvider.System;
        var started = clock.GetTimestamp() - (2 * clock.TimestampFrequency);
        var context = RequestContext.Create("late", started, TimeSpan.FromSeconds(1), default, default, default);
        var headers = new Metadata { { CiceroMetadataKeys.Context, new RequestContextCodec(clock).Encode(context) } };

        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
            await new Probe.ProbeClient(channel).EchoAsync(new EchoRequest(), headers, DateTime.UtcNow.AddSeconds(30)));

        AssertDropped(ex, StatusCode.DeadlineExceeded, "deadline_expired");
        Assert.Equal(0, state.Calls);
    }

    [Fact]
    public async Task Predicted_infeasible_is_deadline_exceeded_deadline_infeasible()
    {
        var state = new ProbeState();
        await using var server = await CiceroProbeServer.StartAsync(state, o =>
        {
            o.Classifier = WorkflowClassifiers.Fixed("slow");

            // No probe: the second call comes more than the default probe interval after the first was admitted.
            o.Core.Admission.InfeasibleProbeInterval = Timeout.InfiniteTimeSpan;
        });
        using var channel = GrpcChannel.ForAddress(server.Address);
        var client = new Probe.ProbeClient(channel);

        // One call teaches Cicero that this workflow takes 3 s here (its completion time L).
        await client.EchoAsync(new EchoRequest { DelayMs = 3000 }, deadline: DateTime.UtcNow.AddSeconds(30));

        // A call with 1.5 s to live cannot make it: refused at once, long before its own deadline. (With 150 ms to live, a
        // busy machine let the client's own deadline pass before the refusal arrived, and the call ended without it.)
        var ex = await Assert.ThrowsAsync<RpcException>(async () =>
            await client.EchoAsync(new EchoRequest { DelayMs = 3000 }, deadline: DateTime.UtcNow.AddMilliseconds(1500)));

        AssertDropped(ex, StatusCode.DeadlineExceeded, "deadline_infeasible");
        Assert.Equal(1, state.Calls);
    }

    [Theory]
    [InlineData("undecodable", false, StatusCode.InvalidArgument)]
    [InlineData("not-base64", false, StatusCode.InvalidArgument)]
    [InlineData("too-long", false, StatusCode.InvalidArgument)]
    [InlineData("not-base64", true, StatusCode.InvalidArgument)]
    [InlineData("too-long", true, StatusCode.InvalidArgument)]
    [InlineData("undecodable", true, StatusCode.OK)]
    public async Task Malformed_context_header_is_invalid_argument(string malformation, bool entryPoint, StatusCode expected)
    {
        var state = new ProbeState();
        await using var server = await CiceroProbeServer.StartAsync(state, o => o.IsEntryPoint = entryPoint);
        var headers = new Metadata();
        Action<HttpRequestMessage>? rewrite = null;
        switch (malformation)
        {
            case "undecodable":
                // Valid base64 of bytes that are no context (format version 7).
                headers.Add(CiceroMetadataKeys.Context, new byte[] { 7, 0, 1, (byte)'w' });
                break;
            case "not-base64":
                rewrite = request => request.Headers.TryAddWithoutValidation(CiceroMetadataKeys.Context, "%%%not-base64%%%");
                break;
            default:
                headers.Add(CiceroMetadataKeys.Context, new byte[1000]);
                break;
        }

        using var channel = GrpcChannel.ForAddress(server.Address, new GrpcChannelOptions { HttpHandler = new WireTap(rewrite), DisposeHttpClient = true });
        var client = new Probe.ProbeClient(channel);
        var status = await StatusOfAsync(client.EchoAsync(new EchoRequest(), headers, DateTime.UtcNow.AddSeconds(30)));

        // Refused before admission: nothing ran, nothing was dropped. At an entry point an untrusted caller's context
        // is not even decoded, so only what cannot be read as a header at all is refused there.
        Assert.Equal(expected, status.StatusCode);
        Assert.Equal(expected == StatusCode.OK ? 1 : 0, state.Calls);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Malformed_header_that_is_not_Cicero_s_is_no_invalid_argument_from_Cicero(bool entryPoint)
    {
        var state = new ProbeState();
        await using var server = await CiceroProbeServer.StartAsync(state, o => o.IsEntryPoint = entryPoint);
        using var channel = GrpcChannel.ForAddress(server.Address, new GrpcChannelOptions
        {
            HttpHandler = new WireTap(request =>
            {
                request.Headers.TryAddWithoutValidation("x-other-bin", "%%%not-base64%%%");
                request.Headers.TryAddWithoutValidation("x-other", "{\"unbalanced\": [");
            }),
            DisposeHttpClient = true,
        });

        var reply = await new Probe.ProbeClient(channel).EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));

        Assert.Equal(1, state.Calls);
        Assert.False(reply.SawCiceroContext);
    }

    [Theory]
    [InlineData(true, false, false, false)]
    [InlineData(true, true, false, true)]
    [InlineData(true, false, true, true)]
    [InlineData(false, false, false, true)]
    public async Task Untrusted_callers_at_an_entry_point_get_no_instance_id(bool entryPoint, bool expose, bool trustIncoming, bool expectId)
    {
        await using var server = await CiceroProbeServer.StartAsync(new ProbeState(), o =>
        {
            o.IsEntryPoint = entryPoint;
            o.ExposeInstanceIdToUntrustedCallers = expose;
            o.TrustIncomingContext = trustIncoming;
        });
        using var channel = GrpcChannel.ForAddress(server.Address);
        using var call = new Probe.ProbeClient(channel).EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));
        await call.ResponseAsync;

        Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var result), "Cicero's trailer is missing");
        Assert.Equal(expectId ? InstanceIds.FromAddress(server.Address) : string.Empty, result.Instance);
    }

    private static Task<TestServer> StartRefusingLeafAsync() => TestServer.StartAsync(
        // Interior calls are admitted (σ and the drop policy) with InteriorCalls = Full (decision 0022).
        services => services.AddCicero(o => { o.ServiceName = "leaf"; o.IsEntryPoint = false; o.InteriorCalls = Cicero.Admission.InteriorAdmission.Full; })
            .ConfigurePolicies(p => p.AddDropPolicy(RefuseAllDropPolicy.Factory))
            .UseDropPolicy(RefuseAllDropPolicy.Name),
        app =>
        {
            app.MapGrpcService<LeafService>();
            app.MapCiceroRateExchange();
        });

    private static async Task<Status> StatusOfAsync(AsyncUnaryCall<EchoReply> call)
    {
        using (call)
        {
            try
            {
                await call.ResponseAsync;
                return call.GetStatus();
            }
            catch (RpcException ex)
            {
                Assert.Null(ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
                return ex.Status;
            }
        }
    }

    private static void AssertDropped(RpcException ex, StatusCode status, string reason)
    {
        Assert.Equal(status, ex.StatusCode);
        Assert.Equal(reason, ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Contains($"Request dropped by Cicero at ", ex.Status.Detail, StringComparison.Ordinal);
    }
}
