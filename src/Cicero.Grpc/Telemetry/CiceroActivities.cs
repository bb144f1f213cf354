// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using Cicero.Diagnostics;
using Cicero.Workflows;

namespace Cicero.Grpc.Telemetry;

/// <summary>Starts and tags Cicero's spans for RPCs, on Cicero's one activity source.</summary>
/// <remarks>
/// Spans are <see cref="ActivityKind.Internal"/>: ASP.NET Core's hosting instrumentation already records the server
/// span of the request, and ours becomes its child (through <see cref="Activity.Current"/>) rather than a second
/// server span. Nothing is allocated unless a listener samples the span.
/// </remarks>
internal static class CiceroActivities
{
    private static ActivitySource Source => CiceroTelemetry.ActivitySource;

    /// <summary>Starts the span of a server-side RPC, named <c>"cicero.server {method}"</c>, and makes it current.</summary>
    /// <param name="method">The RPC's method, as gRPC names it (<c>/package.Service/Method</c>).</param>
    /// <param name="workflow">The request's workflow; the default id when it is not known yet.</param>
    /// <param name="tags">Bounds the workflow tag; consulted only when the span is recorded.</param>
    /// <returns>The span, or <see langword="null"/> when no listener wants it. The caller disposes it.</returns>
    public static Activity? StartServerActivity(string method, WorkflowId workflow, WorkflowTagLimiter tags)
    {
        if (!Source.HasListeners())
        {
            return null;
        }

        var activity = Source.StartActivity(CiceroGrpcTelemetry.ServerActivityPrefix + method, ActivityKind.Internal);
        if (activity is not { IsAllDataRequested: true })
        {
            return activity;
        }

        SetRpcTags(activity, method);
        if (!workflow.IsEmpty)
        {
            activity.SetTag(CiceroTelemetry.WorkflowTag, tags.GetTag(workflow));
        }

        return activity;
    }

    /// <summary>
    /// The OpenTelemetry RPC attributes (<c>rpc.system</c>, <c>rpc.service</c>, <c>rpc.method</c>), so Cicero's span is
    /// found and grouped like the gRPC spans around it. Only for recorded spans: the two strings are cut from the path.
    /// </summary>
    internal static void SetRpcTags(Activity activity, string method)
    {
        activity.SetTag(CiceroGrpcTelemetry.RpcSystemTag, CiceroGrpcTelemetry.RpcSystemGrpc);
        var slash = method.LastIndexOf('/');
        if (slash > 1 && method[0] == '/')
        {
            activity.SetTag(CiceroGrpcTelemetry.RpcServiceTag, method[1..slash]);
            activity.SetTag(CiceroGrpcTelemetry.RpcMethodTag, method[(slash + 1)..]);
        }
    }

    /// <summary>Tags a span with the request's workflow, once it is known, through the bounded tag set.</summary>
    /// <param name="activity">The span; nothing happens when it is <see langword="null"/> or not recorded.</param>
    /// <param name="workflow">The workflow.</param>
    /// <param name="tags">Bounds the workflow tag.</param>
    public static void SetWorkflow(Activity? activity, WorkflowId workflow, WorkflowTagLimiter tags)
    {
        if (activity is { IsAllDataRequested: true } && !workflow.IsEmpty)
        {
            activity.SetTag(CiceroTelemetry.WorkflowTag, tags.GetTag(workflow));
        }
    }

    /// <summary>Records the admission decision on a span: admitted, or dropped with its reason.</summary>
    /// <param name="activity">The span; nothing happens when it is <see langword="null"/> or not recorded.</param>
    /// <param name="reason">The decision; <see cref="DropReason.None"/> means admitted.</param>
    /// <remarks>
    /// A drop does not set an error status: it is Cicero working as intended, and for a server OpenTelemetry's
    /// conventions do not count <c>RESOURCE_EXHAUSTED</c> as an error.
    /// </remarks>
    public static void SetAdmission(Activity? activity, DropReason reason)
    {
        if (activity is not { IsAllDataRequested: true })
        {
            return;
        }

        if (reason == DropReason.None)
        {
            activity.SetTag(CiceroGrpcTelemetry.AdmissionTag, CiceroGrpcTelemetry.AdmissionAdmitted);
            return;
        }

        activity.SetTag(CiceroGrpcTelemetry.AdmissionTag, CiceroGrpcTelemetry.AdmissionDropped);
        activity.SetTag(CiceroTelemetry.DropReasonTag, ToTag(reason));
    }

    /// <summary>The <see cref="CiceroTelemetry.DropReasonTag"/> value of a reason, the same text Core's metrics use.</summary>
    /// <param name="reason">The reason.</param>
    /// <returns>The tag value.</returns>
    internal static string ToTag(DropReason reason) => CiceroTelemetry.DropReasonName(reason);
}
