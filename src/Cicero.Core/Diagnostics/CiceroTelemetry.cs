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

    /// <summary>
    /// Gets Cicero's activity source (named <see cref="Name"/>): the one the engines and Cicero's own adapters, such as
    /// Cicero.Grpc's interceptors, start their spans from. Listen to it by name; start spans from it only in an adapter
    /// that puts Cicero into a transport.
    /// </summary>
    public static System.Diagnostics.ActivitySource ActivitySource => CiceroInstruments.ActivitySource;

    /// <summary>
    /// Gets the name of a drop reason as it appears in the <see cref="DropReasonTag"/> tag and on the wire
    /// (<c>rate_limited</c>, <c>deadline_infeasible</c>, ...; <c>none</c> for <see cref="DropReason.None"/>).
    /// </summary>
    /// <param name="reason">The reason.</param>
    /// <returns>Its name.</returns>
    public static string DropReasonName(DropReason reason) => CiceroInstruments.ToTag(reason);
}
