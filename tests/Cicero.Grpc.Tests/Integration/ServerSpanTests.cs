// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Diagnostics;
using Cicero.Diagnostics;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Telemetry;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Grpc.Tests.Reliability;
using Cicero.Runtime;
using Grpc.Core;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Integration;

/// <summary>Cicero's server spans over a real server; alone in the serial collection, so every span of the method is this test's.</summary>
[Collection(SerialReliabilityTests.Name)]
public sealed class ServerSpanTests
{
    [Fact]
    public async Task Server_spans_carry_the_bounded_workflow_and_the_admission_decision()
    {
        var spans = new ConcurrentQueue<Activity>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == CiceroTelemetry.Name,
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = spans.Enqueue,
        };
        ActivitySource.AddActivityListener(listener);

        // The test runs alone (serial collection), so every span of the method is this test's.
        const string tenant = "alpha";
        await using var host = await TestHost.StartProbeAsync(o =>
        {
            o.Classifier = WorkflowClassifiers.ByHeader("x-tenant");
            o.QueueForAdmission = false;
        });
        host.Services.GetRequiredService<CiceroRuntime>().Admission.Configure(tenant + "-blocked", new Cicero.Admission.RateLimiterProperties(0.001, 1, 0));
        using var channel = host.CreateChannel();
        var client = TestHost.Client(channel);

        await client.WorkAsync(ProbeHandlers.Of("x"), new Metadata { { "x-tenant", tenant } });
        await client.WorkAsync(ProbeHandlers.Of("x"), new Metadata { { "x-tenant", tenant + "-blocked" } });
        await Assert.ThrowsAsync<RpcException>(async () => await client.WorkAsync(ProbeHandlers.Of("x"), new Metadata { { "x-tenant", tenant + "-blocked" } }));

        var ours = spans.Where(s => s.OperationName == CiceroGrpcTelemetry.ServerActivityPrefix + "/cicero.test.Probe/Work").ToList();
        Assert.Equal(3, ours.Count);
        Assert.All(ours, s => Assert.NotNull(s.GetTagItem(CiceroTelemetry.WorkflowTag)));
        Assert.Equal(2, ours.Count(s => (string?)s.GetTagItem(CiceroGrpcTelemetry.AdmissionTag) == CiceroGrpcTelemetry.AdmissionAdmitted));
        var dropped = Assert.Single(ours, s => (string?)s.GetTagItem(CiceroGrpcTelemetry.AdmissionTag) == CiceroGrpcTelemetry.AdmissionDropped);
        Assert.Equal("rate_limited", dropped.GetTagItem(CiceroTelemetry.DropReasonTag));
    }
}
