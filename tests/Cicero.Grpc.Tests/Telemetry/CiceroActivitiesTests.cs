// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Grpc.Telemetry;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Grpc.Tests.Telemetry;

public class CiceroActivitiesTests
{
    [Fact]
    public void ToTag_EveryReason_MatchesTheValueCoreMetricsRecord()
    {
        var prefix = $"reason-{Guid.NewGuid():N}-";
        var recorded = new ConcurrentDictionary<string, string>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == CiceroTelemetry.Name && instrument.Name == CiceroTelemetry.RequestsDropped)
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((_, _, tags, _) =>
        {
            string? workflow = null;
            string? reason = null;
            foreach (var tag in tags)
            {
                workflow = tag.Key == CiceroTelemetry.WorkflowTag ? tag.Value as string : workflow;
                reason = tag.Key == CiceroTelemetry.DropReasonTag ? tag.Value as string : reason;
            }

            if (workflow is not null && reason is not null && workflow.StartsWith(prefix, StringComparison.Ordinal))
            {
                recorded[workflow] = reason;
            }
        });
        listener.Start();
        var clock = new VirtualTimeProvider();
        var policy = new FixedDropPolicy();
        using var admission = new AdmissionController(new WorkflowRegistry(), policy, null, clock);
        var reasons = Enum.GetValues<DropReason>().Where(r => r != DropReason.None).ToList();

        foreach (var reason in reasons)
        {
            policy.Reason = reason;
            Assert.Equal(reason, admission.TryAdmit(RequestContext.Start(prefix + (int)reason, clock)).Reason);
        }

        Assert.All(reasons, reason => Assert.Equal(recorded[prefix + (int)reason], CiceroActivities.ToTag(reason)));
    }

    private sealed class FixedDropPolicy : IDropPolicy
    {
        public DropReason Reason { get; set; }

        public DropDecision Evaluate(in AdmissionCandidate candidate, long now) => DropDecision.Drop(Reason);
    }
}
