// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Grpc.Telemetry;
using Cicero.Time;
using Cicero.Workflows;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace Cicero.Grpc.Tests.Telemetry;

public class CiceroInstrumentationTests
{
    [Fact]
    public void MeterProvider_AddCiceroInstrumentation_ExportsCiceroMetrics()
    {
        // Unique names keep measurements of tests running in parallel apart.
        var workflow = $"otel-{Guid.NewGuid():N}";
        var withCicero = new CollectingMetricExporter();
        var without = new CollectingMetricExporter();
        using var providerWithCicero = Sdk.CreateMeterProviderBuilder()
            .AddCiceroInstrumentation()
            .AddReader(new BaseExportingMetricReader(withCicero))
            .Build();
        using var providerWithout = Sdk.CreateMeterProviderBuilder()
            .AddReader(new BaseExportingMetricReader(without))
            .Build();
        var clock = new VirtualTimeProvider();
        using var admission = new AdmissionController(new WorkflowRegistry(), null, null, clock);
        admission.Configure(workflow, new RateLimiterProperties(5, 2, 0));

        Assert.True(admission.TryAdmit(RequestContext.Start(workflow, clock)).IsAdmitted);
        Assert.True(admission.TryAdmit(RequestContext.Start(workflow, clock)).IsAdmitted);
        Assert.False(admission.TryAdmit(RequestContext.Start(workflow, clock)).IsAdmitted);
        Assert.True(providerWithCicero.ForceFlush());
        Assert.True(providerWithout.ForceFlush());

        var mine = withCicero.Points.Where(p => Equals(p.Tags.GetValueOrDefault(CiceroTelemetry.WorkflowTag), workflow)).ToList();
        Assert.Contains(mine, p => p.MeterName == CiceroTelemetry.Name && p.Name == CiceroTelemetry.RequestsAdmitted && p.Value == 2);
        Assert.Contains(mine, p => p.Name == CiceroTelemetry.RequestsDropped && p.Value == 1
            && Equals(p.Tags[CiceroTelemetry.DropReasonTag], "rate_limited"));
        Assert.Contains(mine, p => p.Name == CiceroTelemetry.AdmissionRate && p.Value == 5);
        Assert.DoesNotContain(without.Points, p => p.MeterName == CiceroTelemetry.Name);
    }

    [Fact]
    public void TracerProvider_AddCiceroInstrumentation_ExportsServerSpansWithBoundedWorkflowAndAdmission()
    {
        var method = $"/cicero.test.Probe/Call{Guid.NewGuid():N}";
        var withCicero = new CollectingActivityProcessor();
        var without = new CollectingActivityProcessor();
        using var providerWithCicero = Sdk.CreateTracerProviderBuilder().AddCiceroInstrumentation().AddProcessor(withCicero).Build();
        using var providerWithout = Sdk.CreateTracerProviderBuilder().AddProcessor(without).Build();
        var tags = new WorkflowTagLimiter(maxValues: 1, promotionThreshold: 1);

        using (var admitted = CiceroActivities.StartServerActivity(method, "checkout", tags))
        {
            Assert.NotNull(admitted);
            CiceroActivities.SetAdmission(admitted, DropReason.None);
        }

        using (var dropped = CiceroActivities.StartServerActivity(method, "search", tags))
        {
            CiceroActivities.SetAdmission(dropped, DropReason.DeadlineInfeasible);
        }

        var spans = withCicero.Ended.Where(a => a.DisplayName == CiceroGrpcTelemetry.ServerActivityPrefix + method).ToList();
        Assert.Equal(2, spans.Count);
        Assert.All(spans, s => Assert.Equal(CiceroTelemetry.Name, s.Source.Name));
        Assert.All(spans, s =>
        {
            Assert.Equal("grpc", s.GetTagItem(CiceroGrpcTelemetry.RpcSystemTag));
            Assert.Equal("cicero.test.Probe", s.GetTagItem(CiceroGrpcTelemetry.RpcServiceTag));
            Assert.Equal(method[(method.LastIndexOf('/') + 1)..], s.GetTagItem(CiceroGrpcTelemetry.RpcMethodTag));
        });
        var first = Assert.Single(spans, s => Equals(s.GetTagItem(CiceroGrpcTelemetry.AdmissionTag), CiceroGrpcTelemetry.AdmissionAdmitted));
        Assert.Equal("checkout", first.GetTagItem(CiceroTelemetry.WorkflowTag));
        Assert.Null(first.GetTagItem(CiceroTelemetry.DropReasonTag));
        var second = Assert.Single(spans, s => Equals(s.GetTagItem(CiceroGrpcTelemetry.AdmissionTag), CiceroGrpcTelemetry.AdmissionDropped));
        Assert.Equal(CiceroGrpcTelemetry.OverflowWorkflowTagValue, second.GetTagItem(CiceroTelemetry.WorkflowTag));
        Assert.Equal("deadline_infeasible", second.GetTagItem(CiceroTelemetry.DropReasonTag));
        Assert.DoesNotContain(without.Ended, a => a.DisplayName.EndsWith(method, StringComparison.Ordinal));
    }

    [Fact]
    public void SetAdmission_NullActivity_DoesNothing()
    {
        CiceroActivities.SetAdmission(null, DropReason.RateLimited);
    }

    [Fact]
    public void AddCiceroInstrumentation_NullBuilder_Throws()
    {
        Assert.Throws<ArgumentNullException>(() => ((MeterProviderBuilder)null!).AddCiceroInstrumentation());
        Assert.Throws<ArgumentNullException>(() => ((TracerProviderBuilder)null!).AddCiceroInstrumentation());
    }
}
