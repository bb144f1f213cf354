// SPDX-License-Identifier: Apache-2.0

using Cicero.Internal;

namespace Cicero.ReplicaSelection;

/// <summary>The group as its engine's host: the retry timer, and the waiters the engine fails.</summary>
public sealed partial class ReplicaGroup
{
    private void OnTimer()
    {
        lock (_lock)
        {
            _engine.RetryNow(Group, _timeProvider.GetTimestamp());
        }

        Pump();
    }

    /// <summary>Fails, outside the lock, the waiters the engine gave up on (nothing would ever release them).</summary>
    private void CompleteFailed()
    {
        (WaitNode<ReplicaPick, int> Waiter, string Reason)[] failed;
        lock (_lock)
        {
            if (_failed.Count == 0)
            {
                return;
            }

            failed = [.. _failed];
            _failed.Clear();
        }

        foreach (var (waiter, reason) in failed)
        {
            waiter.SetResult(new ReplicaPick(null, false, reason));
        }
    }

    private TimeSpan ToTimeSpan(long timestamps) =>
        TimeSpan.FromTicks((long)Math.Ceiling((double)timestamps * TimeSpan.TicksPerSecond / _timeProvider.TimestampFrequency));

    /// <summary>The engine's host: the group's timer, and the waiters it fails (completed later, outside the lock).</summary>
    private sealed class Host(ReplicaGroup owner) : IReplicaClientHost<WaitNode<ReplicaPick, int>>
    {
        public void Dispatch(WaitNode<ReplicaPick, int> request, int replica, bool isLocal) =>
            throw new InvalidOperationException("A replica group releases its waiters itself.");

        public void Fail(WaitNode<ReplicaPick, int> request, string reason)
        {
            request.IsQueued = false;
            owner._failed.Add((request, reason));
        }

        public void ScheduleRetry(int group, long due) =>
            owner._timer.Change(owner.ToTimeSpan(Math.Max(1, due - owner._timeProvider.GetTimestamp())), Timeout.InfiniteTimeSpan);

        public void ScheduleBackoffEnd(int replica, long due) =>
            throw new InvalidOperationException("A replica group is never told a replica refused a call; its host reconnects.");
    }
}
