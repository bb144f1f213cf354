// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc;

/// <summary>The headers and trailers Cicero adds to gRPC calls.</summary>
public static class CiceroMetadataKeys
{
    /// <summary>Request header: the request context (workflow, start time, deadline, progress a, estimates T), binary v1.</summary>
    public const string Context = "cicero-ctx-bin";

    /// <summary>Request header: the calling process's id, which the callee uses to share its rates among callers.</summary>
    public const string Caller = "cicero-caller";

    /// <summary>Trailer: the progress counters b (service time, load) of the callee and everything it called.</summary>
    public const string Progress = "cicero-progress-bin";

    /// <summary>Trailer: the callee's replica-selection feedback (queue size, service time, background activity).</summary>
    public const string Feedback = "cicero-feedback-bin";

    /// <summary>Trailer: the id of the instance that served the call, for amplification per instance.</summary>
    public const string Instance = "cicero-instance";

    /// <summary>Trailer of a dropped request: why it was dropped (e.g. <c>rate_limited</c>).</summary>
    public const string DropReason = "cicero-drop-reason";

    /// <summary>Request header of rate-exchange calls: the shared token, when the endpoint requires one.</summary>
    public const string RateExchangeToken = "cicero-rate-token";
}
