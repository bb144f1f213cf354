// SPDX-License-Identifier: Apache-2.0


namespace Cicero.Grpc.Context;

/// <summary>Drop reasons as they travel in the <see cref="CiceroMetadataKeys.DropReason"/> trailer.</summary>
public static class DropReasonNames
{
    /// <summary>Gets the wire name of a reason (<c>rate_limited</c>, <c>deadline_infeasible</c>, ...).</summary>
    /// <param name="reason">The reason.</param>
    /// <returns>The name.</returns>
    public static string ToWire(DropReason reason) => Cicero.Diagnostics.CiceroTelemetry.DropReasonName(reason);

    /// <summary>Parses a wire name.</summary>
    /// <param name="name">The name.</param>
    /// <param name="reason">The reason.</param>
    /// <returns>Whether the name is known.</returns>
    public static bool TryParse(string? name, out DropReason reason)
    {
        reason = name switch
        {
            "rate_limited" => DropReason.RateLimited,
            "deadline_infeasible" => DropReason.DeadlineInfeasible,
            "queue_full" => DropReason.QueueFull,
            "downstream_dropped" => DropReason.DownstreamDropped,
            "policy" => DropReason.Policy,
            "deadline_expired" => DropReason.DeadlineExpired,
            _ => DropReason.None,
        };
        return reason != DropReason.None;
    }

    /// <summary>Gets the gRPC status a rejection for this reason carries (the table in docs/grpc-integration.md).</summary>
    /// <param name="reason">The reason.</param>
    /// <returns><c>DEADLINE_EXCEEDED</c> when time ran out or would run out; <c>RESOURCE_EXHAUSTED</c> otherwise.</returns>
    public static global::Grpc.Core.StatusCode ToStatusCode(DropReason reason) => reason is DropReason.DeadlineInfeasible or DropReason.DeadlineExpired
        ? global::Grpc.Core.StatusCode.DeadlineExceeded
        : global::Grpc.Core.StatusCode.ResourceExhausted;
}
