// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Diagnostics.Metrics;

namespace Cicero.Diagnostics;

/// <summary>Cicero's one meter and activity source, created once; only engines record.</summary>
internal static class CiceroInstruments
{
    public static readonly Meter Meter = new(new MeterOptions(CiceroTelemetry.Name) { Version = Version });

    public static readonly ActivitySource ActivitySource = new(CiceroTelemetry.Name, Version);

    public static readonly Gauge<double> AdmissionRate =
        Meter.CreateGauge<double>(CiceroTelemetry.AdmissionRate, "{request}/s", "Admission rate announced per workflow.");

    public static readonly Counter<long> RequestsAdmitted =
        Meter.CreateCounter<long>(CiceroTelemetry.RequestsAdmitted, "{request}", "Requests admitted.");

    public static readonly Counter<long> RequestsDropped =
        Meter.CreateCounter<long>(CiceroTelemetry.RequestsDropped, "{request}", "Requests dropped, by reason.");

    public static readonly UpDownCounter<long> AdmissionQueueLength =
        Meter.CreateUpDownCounter<long>(CiceroTelemetry.AdmissionQueueLength, "{request}", "Requests waiting for admission.");

    public static readonly UpDownCounter<long> ResourceQueueLength =
        Meter.CreateUpDownCounter<long>(CiceroTelemetry.ResourceQueueLength, "{subtask}", "Sub-tasks waiting for a resource.");

    public static readonly Histogram<double> ResourceWaitDuration =
        Meter.CreateHistogram<double>(CiceroTelemetry.ResourceWaitDuration, "s", "Time sub-tasks waited for a permit.");

    public static readonly Histogram<double> ResourceServiceDuration =
        Meter.CreateHistogram<double>(CiceroTelemetry.ResourceServiceDuration, "s", "Time permits were held.");

    public static readonly Counter<long> SubtasksDropped =
        Meter.CreateCounter<long>(CiceroTelemetry.SubtasksDropped, "{subtask}", "Sub-tasks turned away by a resource.");

    public static readonly Gauge<int> DownstreamStatus =
        Meter.CreateGauge<int>(CiceroTelemetry.DownstreamStatus, null, "Freshness of downstream rate answers: 0 fresh, 1 holding, 2 expired, 3 unsupported (no instance runs Cicero).");

    private static string Version => typeof(CiceroInstruments).Assembly.GetName().Version?.ToString() ?? "0.0.0";

    public static string ToTag(DropReason reason) => reason switch
    {
        DropReason.RateLimited => "rate_limited",
        DropReason.DeadlineInfeasible => "deadline_infeasible",
        DropReason.QueueFull => "queue_full",
        DropReason.DownstreamDropped => "downstream_dropped",
        DropReason.Policy => "policy",
        DropReason.DeadlineExpired => "deadline_expired",
        _ => "none",
    };
}
