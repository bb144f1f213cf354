// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc;

/// <summary>The headers and trailers Cicero adds to gRPC calls.</summary>
public static class CiceroMetadataKeys
{
    /// <summary>
    /// Request header: the request context (workflow, start time, deadline, progress a, estimates T) in Core's binary
    /// form, followed by the calling process's id (docs/context-wire-format.md).
    /// </summary>
    public const string Context = "cicero-ctx-bin";

    /// <summary>
    /// Trailer of an admitted call: the callee's progress counters b, its replica-selection feedback (queue size,
    /// service time, background activity) and its instance id, in one binary value; read it with
    /// <see cref="Cicero.Grpc.Context.CiceroTrailers"/>.
    /// </summary>
    public const string Result = "cicero-result-bin";

    /// <summary>Trailer of a dropped request: why it was dropped (e.g. <c>rate_limited</c>).</summary>
    public const string DropReason = "cicero-drop-reason";

    /// <summary>Request header of rate-exchange calls: the shared token, when the endpoint requires one.</summary>
    public const string RateExchangeToken = "cicero-rate-token";
}
