// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>The backlogs (<see cref="ReplicaBacklogs{TRequest}"/>) and the feedback that releases waiting requests.</summary>
public sealed partial class ReplicaClientEngine<TRequest>
{
    /// <summary>
    /// The retry timer of a group fired, on a clock that fires exactly at the due it was asked for (an event loop):
    /// a firing before the armed due is stale (a sooner retry replaced it) and is ignored.
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    public void OnRetryTimer(int group, long now) => _backlogs.OnRetryTimer(group, now);

    /// <summary>
    /// Retries a group's backlog now, whatever retry was armed: for a host with one timer per group that it re-arms in
    /// place, whose firing is never stale but may come a little before the due (a coarse system timer).
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    internal void RetryNow(int group, long now) => _backlogs.RetryNow(group, now);

    /// <summary>
    /// Releases the oldest request of a group's backlog if the selector now answers a replica or a failure for it;
    /// otherwise arms the group's retry. For hosts that release requests themselves
    /// (<see cref="ReplicaClientEngineOptions.AutoRelease"/> off); the host sends or fails the request it gets.
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <param name="request">The released request.</param>
    /// <param name="replica">Its replica's index, or -1 when it failed.</param>
    /// <param name="failure">Why it failed, or <see langword="null"/>.</param>
    /// <returns>Whether a request was released.</returns>
    internal bool TryReleaseOne(int group, long now, out TRequest request, out int replica, out string? failure) =>
        _backlogs.TryReleaseOne(group, now, out request, out replica, out failure);

    private void Complete(ReplicaState view, int index, in ReplicaFeedback feedback, long now)
    {
        if (view.Outstanding > 0)
        {
            view.Outstanding--;
        }

        _selector.OnFeedback(view, feedback, now);
        if (!feedback.Failed && index >= 0)
        {
            _backoffs.Reset(index);
        }

        _backlogs.RetryHolding(index, now);
    }
}
