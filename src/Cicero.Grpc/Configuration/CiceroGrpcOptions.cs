// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Grpc.Classification;
using Cicero.Policies.Dropping;
using Cicero.Policies.RateLimiting;
using Cicero.Runtime;
using Grpc.Core;

namespace Cicero.Grpc.Configuration;

/// <summary>Cicero in an ASP.NET Core / gRPC service: validated at start-up by <c>AddCicero</c>.</summary>
public sealed class CiceroGrpcOptions
{
    /// <summary>Gets or sets this service's name (e.g. <c>frontend</c>); required.</summary>
    public string ServiceName { get; set; } = string.Empty;

    /// <summary>
    /// Gets or sets this instance's id, the address callers reach it at (<c>http://10.0.0.5:5000</c>); when
    /// <see langword="null"/>, the server's first listening address.
    /// </summary>
    public string? InstanceId { get; set; }

    /// <summary>
    /// Gets or sets a value indicating whether external clients call this service directly. At an entry point the
    /// workflow comes from <see cref="Classifier"/> and client-supplied context headers are ignored unless
    /// <see cref="TrustIncomingContext"/> or <see cref="IsTrustedCaller"/> says otherwise. <see langword="true"/> by default,
    /// the safe choice; set it to <see langword="false"/> for services only reachable inside the mesh.
    /// </summary>
    public bool IsEntryPoint { get; set; } = true;

    /// <summary>Gets or sets a value indicating whether an entry point trusts the context headers its clients send.</summary>
    public bool TrustIncomingContext { get; set; }

    /// <summary>Gets or sets a predicate for callers inside the mesh at an entry point (e.g. by mTLS identity); optional.</summary>
    public Func<ServerCallContext, bool>? IsTrustedCaller { get; set; }

    /// <summary>Gets or sets how external requests are assigned a workflow; by method by default.</summary>
    public IWorkflowClassifier Classifier { get; set; } = WorkflowClassifiers.ByMethod();

    /// <summary>Gets or sets the deadline δ of external requests that come without a gRPC deadline; none by default.</summary>
    public TimeSpan? DefaultDeadline { get; set; }

    /// <summary>
    /// Gets or sets the end-to-end deadline δ of a new request by workflow (e.g. a tenant's SLO); when it returns
    /// <see langword="null"/>, or is not set, δ is the call's gRPC deadline, else <see cref="DefaultDeadline"/>.
    /// </summary>
    public Func<ServerCallContext, Cicero.Workflows.WorkflowId, TimeSpan?>? DeadlineSelector { get; set; }

    /// <summary>
    /// Gets or sets what this service does with a call that carries a trusted Cicero context (a hop of a request another
    /// service admitted at its entry; docs/decisions/0022): by default it is counted (its arrival per caller and its
    /// admission, from which the rates announced upstream are computed), and refused only above the workflow's local fair
    /// share while a local resource it loads is congested. <see cref="InteriorAdmission.Full"/> holds it to this
    /// instance's σ and drop policy as at an entry. The emulator's simulator takes the same code path.
    /// Calls without a context (and untrusted ones at an entry point) are always admitted.
    /// </summary>
    /// <value><see cref="InteriorAdmission.LocalFairShare"/>.</value>
    public InteriorAdmission InteriorCalls { get; set; } = AdmissionController.DefaultInteriorAdmission;

    /// <summary>Gets or sets a value indicating whether requests over the rate wait in the admission queue (bounded) rather than fail at once.</summary>
    public bool QueueForAdmission { get; set; } = true;

    /// <summary>
    /// Gets or sets the largest accepted context header (context and caller id), in bytes; larger ones are
    /// <c>INVALID_ARGUMENT</c>.
    /// </summary>
    /// <value>450: the longest context (195 bytes) and the longest caller id (255).</value>
    public int MaxContextHeaderBytes { get; set; } = Context.ContextHeader.MaxLength;

    /// <summary>Gets or sets the background-activity signal in [0, 1] sent to C3 clients (e.g. compaction); none by default.</summary>
    public Func<double>? BackgroundActivity { get; set; }

    /// <summary>
    /// Gets or sets a value indicating whether callers that an entry point does not trust (see <see cref="IsEntryPoint"/>)
    /// receive this instance's id (its internal address) in <see cref="CiceroMetadataKeys.Result"/>; off by default.
    /// </summary>
    public bool ExposeInstanceIdToUntrustedCallers { get; set; }

    /// <summary>
    /// Gets the fully qualified gRPC services (<c>package.Service</c>) that Cicero's server interceptor lets through
    /// without context, admission or trailers: control-plane traffic that must never be dropped. The health and
    /// reflection services by default; Cicero's own rate exchange always.
    /// </summary>
    public IList<string> ExemptServices { get; } = ["grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"];

    /// <summary>Gets the Core options: workflow bound, model, admission, rate adaptation (quantile, interval, timeouts).</summary>
    public CiceroOptions Core { get; } = new();

    /// <summary>Gets or sets the local rate-limit policy's name; <c>pass-through</c> by default.</summary>
    public string RateLimitPolicy { get; set; } = RateLimitPolicies.PassThrough;

    /// <summary>Gets or sets the drop policy's name; <c>deadline-feasibility</c> by default.</summary>
    public string DropPolicy { get; set; } = DropPolicies.DeadlineFeasibility;

    /// <summary>Gets the resources (semaphores with a scheduler) this service guards.</summary>
    public IList<CiceroResourceOptions> Resources { get; } = [];

    /// <summary>Gets the downstream services this one calls.</summary>
    public IList<CiceroDownstreamOptions> Downstreams { get; } = [];

    /// <summary>Gets the rate-exchange options.</summary>
    public RateExchangeOptions RateExchange { get; } = new();
}
