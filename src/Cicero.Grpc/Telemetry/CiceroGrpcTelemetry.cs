// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;

namespace Cicero.Grpc.Telemetry;

/// <summary>
/// Span names, tag names and tag values that Cicero.Grpc adds to those of <see cref="CiceroTelemetry"/>. Spans come
/// from the same activity source, named <see cref="CiceroTelemetry.Name"/>.
/// </summary>
public static class CiceroGrpcTelemetry
{
    /// <summary>The prefix of a server-side RPC span's name, which is <c>"cicero.server {method}"</c>.</summary>
    public const string ServerActivityPrefix = "cicero.server ";

    /// <summary>Tag (OpenTelemetry RPC conventions): the RPC system, always <see cref="RpcSystemGrpc"/>.</summary>
    public const string RpcSystemTag = "rpc.system";

    /// <summary>Value of <see cref="RpcSystemTag"/>.</summary>
    public const string RpcSystemGrpc = "grpc";

    /// <summary>Tag (OpenTelemetry RPC conventions): the full gRPC service name, e.g. <c>storage.v1.Blobs</c>.</summary>
    public const string RpcServiceTag = "rpc.service";

    /// <summary>Tag (OpenTelemetry RPC conventions): the method name, e.g. <c>Read</c>.</summary>
    public const string RpcMethodTag = "rpc.method";

    /// <summary>Tag: Cicero's admission decision for the request, <see cref="AdmissionAdmitted"/> or <see cref="AdmissionDropped"/>.</summary>
    public const string AdmissionTag = "cicero.admission";

    /// <summary>Value of <see cref="AdmissionTag"/>: the request was admitted.</summary>
    public const string AdmissionAdmitted = "admitted";

    /// <summary>
    /// Value of <see cref="AdmissionTag"/>: the request was dropped; <see cref="CiceroTelemetry.DropReasonTag"/> then
    /// says why.
    /// </summary>
    public const string AdmissionDropped = "dropped";

    /// <summary>
    /// The value of <see cref="CiceroTelemetry.WorkflowTag"/> for workflows beyond a <see cref="WorkflowTagLimiter"/>'s
    /// bound. It is the workflow registry's reserved overflow id, so no real workflow can share it and Core's metrics
    /// use the same bucket name.
    /// </summary>
    public const string OverflowWorkflowTagValue = Workflows.WorkflowRegistry.OverflowWorkflowName;
}
