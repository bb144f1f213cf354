// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;
using Cicero.Grpc;
using Cicero.Grpc.Context;
using Grpc.Core;

namespace Cicero.Emulator.Live;

/// <summary>How a failed live call ends in the emulator's books: a drop with Cicero's reason, or a failure.</summary>
internal static class LiveOutcomes
{
    /// <summary>
    /// The start of the status detail of a call Cicero.Grpc's replica-selection balancer could place on no replica
    /// (its picker fails the call with <c>UNAVAILABLE</c>); nothing else marks such a failure.
    /// </summary>
    private const string NoReplicaDetail = "No replica can take the call";

    /// <summary>Classifies a call that ended with a status other than OK.</summary>
    /// <param name="ex">The call's exception.</param>
    /// <returns>
    /// Dropped with the reason of the <c>cicero-drop-reason</c> trailer (Cicero rejects with <c>RESOURCE_EXHAUSTED</c>,
    /// or <c>DEADLINE_EXCEEDED</c> for <c>deadline_infeasible</c> and <c>deadline_expired</c>); otherwise failed:
    /// <c>timeout</c> for a deadline that ran out, <c>no-replica</c>, or the status code's name.
    /// </returns>
    public static Outcome Classify(RpcException ex)
    {
        var tag = ex.Trailers.GetValue(CiceroMetadataKeys.DropReason);
        if (tag is not null)
        {
            return DropReasonNames.TryParse(tag, out var reason) ? Outcome.Dropped(reason) : Outcome.Dropped(DropReason.Policy);
        }

        return ex.StatusCode switch
        {
            // A rejection without Cicero's reason still turned the request away: count it as a drop, never a failure.
            StatusCode.ResourceExhausted => Outcome.Dropped(DropReason.Policy),
            StatusCode.DeadlineExceeded => Outcome.Failed(Outcome.Timeout),
            StatusCode.Unavailable when ex.Status.Detail.StartsWith(NoReplicaDetail, StringComparison.Ordinal) => Outcome.Failed(Outcome.NoReplica),
            _ => Outcome.Failed(ex.StatusCode.ToString().ToLowerInvariant()),
        };
    }
}
