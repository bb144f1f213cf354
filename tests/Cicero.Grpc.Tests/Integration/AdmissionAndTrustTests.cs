// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Grpc.Tests.Protos;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Integration;

/// <summary>Admission, the trust boundary and header validation over a real Kestrel server and generated clients.</summary>
public sealed class AdmissionAndTrustTests
{
    private const string Tenant = "tenant-a";

    [Fact]
    public async Task Rejected_request_is_resource_exhausted_with_its_reason_and_does_no_work()
    {
        var handled = 0;
        await using var host = await TestHost.StartProbeAsync(
            o =>
            {
                o.Classifier = WorkflowClassifiers.Fixed(Tenant);
                o.QueueForAdmission = false;
            },
            new ProbeHandlers { Work = (request, _) => { Interlocked.Increment(ref handled); return Task.FromResult(request); } });
        host.Services.GetRequiredService<CiceroRuntime>().Admission.Configure(Tenant, new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        using var channel = host.CreateChannel();
        var client = TestHost.Client(channel);

        Assert.Equal("first", (await client.WorkAsync(ProbeHandlers.Of("first"))).Value);
        var call = client.WorkAsync(ProbeHandlers.Of("second"));
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await call);

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Contains("rate_limited", ex.Status.Detail, StringComparison.Ordinal);
        Assert.Equal("rate_limited", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal("rate_limited", call.GetTrailers().GetValue(CiceroMetadataKeys.DropReason));
        // A drop names the refusing instance (for the caller's per-instance accounting) but reports no progress.
        Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var dropped));
        Assert.Equal(0, dropped.Progress.ServiceTime);
        Assert.Equal(0, dropped.Progress.Load);
        Assert.Equal(1, handled);
    }

    [Fact]
    public async Task Malformed_and_oversized_context_headers_are_invalid_argument()
    {
        var handled = 0;
        await using var host = await StartAsync(isEntryPoint: false, _ => Interlocked.Increment(ref handled));
        using var channel = host.CreateChannel();
        var client = TestHost.Client(channel);

        var garbage = new Metadata { { CiceroMetadataKeys.Context, new byte[] { 0x01, 0xFF, 0x00, 0x13 } } };
        var malformed = await Assert.ThrowsAsync<RpcException>(async () => await client.WorkAsync(ProbeHandlers.Of("x"), garbage));
        Assert.Equal(StatusCode.InvalidArgument, malformed.StatusCode);
        Assert.Contains("malformed", malformed.Status.Detail, StringComparison.Ordinal);

        var huge = new Metadata { { CiceroMetadataKeys.Context, new byte[4096] } };
        var oversized = await Assert.ThrowsAsync<RpcException>(async () => await client.WorkAsync(ProbeHandlers.Of("x"), huge));
        Assert.Equal(StatusCode.InvalidArgument, oversized.StatusCode);
        Assert.Contains("longer than the limit", oversized.Status.Detail, StringComparison.Ordinal);

        // The server still serves well-formed calls afterwards.
        await client.WorkAsync(ProbeHandlers.Of("x"));
        Assert.Equal(1, handled);
    }

    [Fact]
    public async Task Entry_point_ignores_client_supplied_context_unless_told_to_trust_it()
    {
        var seen = new List<RequestContext>();
        var forged = Forge();

        await using (var entry = await StartAsync(isEntryPoint: true, seen.Add))
        {
            using var channel = entry.CreateChannel();
            var call = TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"), forged, TimeProvider.System.GetUtcNow().UtcDateTime.AddSeconds(30));
            await call;

            // An untrusted caller is not told the instance's internal address.
            Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var result));
            Assert.Equal(string.Empty, result.Instance);
        }

        await using (var trusting = await StartAsync(isEntryPoint: true, seen.Add, trust: true))
        {
            using var channel = trusting.CreateChannel();
            var call = TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"), forged, TimeProvider.System.GetUtcNow().UtcDateTime.AddSeconds(30));
            await call;
            Assert.True(CiceroTrailers.TryRead(call.GetTrailers(), out var result));
            Assert.Equal(InstanceIds.FromAddress(trusting.Address), result.Instance);
        }

        // Default: the classifier's workflow, nothing done before arrival, the call's own gRPC deadline.
        Assert.Equal(Tenant, seen[0].Workflow.Value);
        Assert.Equal(ProgressDelta.Zero, seen[0].BeforeArrival);
        Assert.InRange(seen[0].Deadline!.Value, TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(30));

        // Opted in: the client's context is taken as sent.
        Assert.Equal("forged", seen[1].Workflow.Value);
        Assert.Equal(5.0, seen[1].BeforeArrival.ServiceTime);
        Assert.Equal(TimeSpan.FromMinutes(10), seen[1].Deadline);
    }

    [Fact]
    public async Task A_propagated_context_whose_deadline_has_passed_is_deadline_exceeded_before_any_work()
    {
        var handled = 0;
        await using var host = await StartAsync(isEntryPoint: false, _ => Interlocked.Increment(ref handled));
        using var channel = host.CreateChannel();
        var clock = TimeProvider.System;

        // 5 s spent upstream of a 1 s end-to-end deadline.
        var late = RequestContext.Create(Tenant, clock.GetTimestamp() - (5 * clock.TimestampFrequency), TimeSpan.FromSeconds(1), default, default, default);
        var headers = new Metadata { { CiceroMetadataKeys.Context, new RequestContextCodec(clock).Encode(late) } };
        var call = TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"), headers);
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await call);

        Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        Assert.Equal("deadline_expired", call.GetTrailers().GetValue(CiceroMetadataKeys.DropReason));
        Assert.Equal(0, handled);
    }

    [Fact]
    public async Task Caller_id_travels_after_the_context_and_reaches_the_callee_model_and_a_bad_one_is_invalid_argument()
    {
        var handled = 0;
        await using var host = await StartAsync(isEntryPoint: false, _ => Interlocked.Increment(ref handled));
        using var channel = host.CreateChannel();
        using var clientRuntime = new CiceroRuntime();
        foreach (var callerId in new[] { "upstream-7", "upstream-8", "upstream-7" })
        {
            var client = new Probe.ProbeClient(channel.Intercept(new CiceroClientInterceptor(clientRuntime, "svc", callerId)));
            using (CiceroContext.Use(clientRuntime.StartRequest(Tenant)))
            {
                await client.WorkAsync(ProbeHandlers.Of("x"));
            }
        }

        // Two distinct ids arrived with the contexts; without them the callee would know no caller at all.
        var runtime = host.Services.GetRequiredService<CiceroRuntime>();
        Assert.Equal(2, runtime.Model.Get(runtime.Registry.Resolve(Tenant)).CallerCount);

        var context = new RequestContextCodec(TimeProvider.System).Encode(RequestContext.Start(Tenant, TimeProvider.System));
        var spaced = new Metadata { { CiceroMetadataKeys.Context, [.. context, .. "bad caller"u8] } };
        var error = await Assert.ThrowsAsync<RpcException>(async () => await TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("x"), spaced));
        Assert.Equal(StatusCode.InvalidArgument, error.StatusCode);
        Assert.Contains("caller id", error.Status.Detail, StringComparison.Ordinal);
        Assert.Equal(3, handled);
    }

    [Fact]
    public async Task A_dropped_downstream_call_is_this_services_resource_exhausted_downstream_dropped()
    {
        // A leaf that holds interior calls to its σ too (InteriorCalls = Full; by default it counts them, decision 0022).
        await using var leaf = await StartAsync(isEntryPoint: false, _ => { }, fullInterior: true);
        leaf.Services.GetRequiredService<CiceroRuntime>().Admission.Configure(Tenant, new RateLimiterProperties(Rate: 0.001, Burst: 1, QueueLimit: 0));
        await using var entry = await TestHost.StartProbeAsync(
            o => o.Classifier = WorkflowClassifiers.Fixed(Tenant),
            new ProbeHandlers
            {
                Work = (request, context) => context.GetHttpContext().RequestServices.GetRequiredService<Probe.ProbeClient>().WorkAsync(request).ResponseAsync,
            },
            services: s => s.AddGrpcClient<Probe.ProbeClient>(o => o.Address = leaf.Address).AddCiceroDownstream("leaf"));
        using var channel = entry.CreateChannel();
        var client = TestHost.Client(channel);

        // With a deadline: see Entry_call_without_a_deadline_can_call_downstream for the call without one.
        await client.WorkAsync(ProbeHandlers.Of("first"), deadline: InTenSeconds());
        var ex = await Assert.ThrowsAsync<RpcException>(async () => await client.WorkAsync(ProbeHandlers.Of("second"), deadline: InTenSeconds()));

        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        Assert.Equal("downstream_dropped", ex.Trailers.GetValue(CiceroMetadataKeys.DropReason));

        // The leaf has no token for 1,000 s: it says rate_limited, or deadline_infeasible when the wait would pass the deadline.
        Assert.Matches("a downstream call was dropped: (rate_limited|deadline_infeasible)", ex.Status.Detail);
    }

    [Fact]
    public async Task Entry_call_without_a_deadline_can_call_downstream()
    {
        await using var leaf = await StartAsync(isEntryPoint: false, _ => { });
        await using var entry = await TestHost.StartProbeAsync(
            o => o.Classifier = WorkflowClassifiers.Fixed(Tenant),
            new ProbeHandlers
            {
                Work = (request, context) => context.GetHttpContext().RequestServices.GetRequiredService<Probe.ProbeClient>().WorkAsync(request).ResponseAsync,
            },
            services: s => s.AddGrpcClient<Probe.ProbeClient>(o => o.Address = leaf.Address).AddCiceroDownstream("leaf"));
        using var channel = entry.CreateChannel();

        var response = await TestHost.Client(channel).WorkAsync(ProbeHandlers.Of("no deadline"));

        Assert.Equal("no deadline", response.Value);
    }

    private static DateTime InTenSeconds() => TimeProvider.System.GetUtcNow().UtcDateTime.AddSeconds(10);

    private static Metadata Forge()
    {
        var codec = new RequestContextCodec(TimeProvider.System);
        var context = RequestContext.Create(
            "forged", TimeProvider.System.GetTimestamp(), TimeSpan.FromMinutes(10), new ProgressDelta(5.0, 100), ProgressDelta.Zero, new ProgressDelta(6.0, 120));
        return new Metadata { { CiceroMetadataKeys.Context, codec.Encode(context) } };
    }

    private static Task<TestHost> StartAsync(bool isEntryPoint, Action<RequestContext> onRequest, bool trust = false, bool fullInterior = true) => TestHost.StartProbeAsync(
        o =>
        {
            o.IsEntryPoint = isEntryPoint;
            o.TrustIncomingContext = trust;
            o.InteriorCalls = fullInterior ? InteriorAdmission.Full : InteriorAdmission.LocalFairShare;
            o.Classifier = WorkflowClassifiers.Fixed(Tenant);
        },
        new ProbeHandlers
        {
            Work = (request, _) =>
            {
                lock (onRequest)
                {
                    onRequest(CiceroContext.Current!);
                }

                return Task.FromResult(request);
            },
        });
}
