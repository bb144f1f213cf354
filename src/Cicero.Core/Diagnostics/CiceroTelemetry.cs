// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Diagnostics;

/// <summary>The names of Cicero's <c>Meter</c>, <c>ActivitySource</c>, instruments and tags.</summary>
public static class CiceroTelemetry
{
    /// <summary>The name of Cicero's meter and activity source.</summary>
    public const string Name = "Cicero";

    /// <summary>Gauge: the admission rate σ a process announces for a workflow, requests per second.</summary>
    public const string AdmissionRate = "cicero.admission.rate";

    /// <summary>Counter: requests admitted.</summary>
    public const string RequestsAdmitted = "cicero.requests.admitted";

    /// <summary>Counter: requests dropped, tagged with <see cref="DropReasonTag"/>.</summary>
    public const string RequestsDropped = "cicero.requests.dropped";

    /// <summary>Up-down counter: requests waiting in admission limiter queues.</summary>
    public const string AdmissionQueueLength = "cicero.admission.queue.length";

    /// <summary>Up-down counter: sub-tasks waiting for a resource.</summary>
    public const string ResourceQueueLength = "cicero.resource.queue.length";

    /// <summary>Histogram: time a sub-task waited for a permit, seconds.</summary>
    public const string ResourceWaitDuration = "cicero.resource.wait.duration";

    /// <summary>Histogram: time a permit was held, seconds.</summary>
    public const string ResourceServiceDuration = "cicero.resource.service.duration";

    /// <summary>Counter: sub-tasks turned away by a resource, tagged with <see cref="DropReasonTag"/>.</summary>
    public const string SubtasksDropped = "cicero.subtasks.dropped";

    /// <summary>Gauge: downstream instances of a service whose rate answers are stale (1) or expired (2); 0 when fresh.</summary>
    public const string DownstreamStatus = "cicero.downstream.status";

    /// <summary>Tag: the workflow id.</summary>
    public const string WorkflowTag = "cicero.workflow";

    /// <summary>Tag: the resource name.</summary>
    public const string ResourceTag = "cicero.resource";

    /// <summary>Tag: the drop reason.</summary>
    public const string DropReasonTag = "cicero.drop.reason";

    /// <summary>Tag: the downstream service.</summary>
    public const string ServiceTag = "cicero.service";
}
