// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;
using Grpc.Net.Client.Balancer;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// Picks through the replica group: the selector ranks the ready subchannels; when every replica is over its rate the
/// pick is queued (grpc-dotnet re-runs it on the next picker, which the balancer publishes when a response frees a
/// replica or the selector's rate limiter refills).
/// </summary>
internal sealed class ReplicaSelectorPicker(ReplicaSelectorBalancer owner, IReadOnlyDictionary<string, Subchannel> subchannels) : SubchannelPicker
{
    public IReadOnlyDictionary<string, Subchannel> Subchannels => subchannels;

    public override PickResult Pick(PickContext context)
    {
        if (!owner.Group.TryPick(out var pick, out var retryAfter))
        {
            owner.OnQueued(retryAfter);
            return PickResult.ForQueue();
        }

        if (pick.Replica is not { } replica)
        {
            return PickResult.ForFailure(new Status(StatusCode.Unavailable, $"No replica can take the call: {pick.Failure}"));
        }

        if (!subchannels.TryGetValue(replica.Id, out var subchannel))
        {
            // The group moved on to a newer set of subchannels than this picker knows: undo the pick and retry it.
            owner.Group.Release(replica);
            owner.OnQueued(TimeSpan.Zero);
            return PickResult.ForQueue();
        }

        var tracker = new ReplicaCallTracker(owner, replica);
        if (OutgoingCall.Current is { } call)
        {
            tracker.WaitForTrailers();
            if (!call.Bind(tracker))
            {
                tracker.FinishWithoutTrailers();
            }
        }

        return PickResult.ForSubchannel(subchannel, tracker);
    }
}
