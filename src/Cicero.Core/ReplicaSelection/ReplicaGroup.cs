// SPDX-License-Identifier: Apache-2.0

using Cicero.Internal;

namespace Cicero.ReplicaSelection;

/// <summary>
/// The client-side engine of one replica group (C3 Algorithm 1): it owns the replicas' outstanding counts and the
/// backlog, asks the <see cref="IReplicaSelector"/> for each request, and feeds every response back to it. When the
/// selector answers <see cref="ReplicaChoice.Backlog"/> (every replica over its rate), requests wait in FIFO order and
/// are retried when a response arrives or when the selector says a replica will be available.
/// </summary>
/// <remarks>
/// Thread-safe; the selector is called under the group's lock. A pick that does not wait completes synchronously and
/// allocates nothing. Waiters are released by a timer on the injected <see cref="TimeProvider"/>, so a virtual clock
/// drives the backlog deterministically. With <see cref="ReplicaGroupOptions.ServeLocally"/>, requests go straight to
/// this process's own replica (Wu's local fast path).
/// </remarks>
public sealed class ReplicaGroup : IWaitNodeOwner<ReplicaPick, int>, IDisposable
{
    private readonly Lock _lock;
    private readonly ReplicaGroupCoordinator? _coordinator;
    private readonly IReplicaSelector _selector;
    private readonly ReplicaGroupOptions _options;
    private readonly TimeProvider _timeProvider;
    private readonly Deque<WaitNode<ReplicaPick, int>> _backlog = new();
    private readonly Stack<WaitNode<ReplicaPick, int>> _pool = new();
    private readonly ITimer _timer;
    private ReplicaState[] _replicas = [];
    private long _timerDue = long.MaxValue;

    /// <summary>Creates a replica group.</summary>
    /// <param name="selector">The selection policy.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    /// <param name="coordinator">Shared by the client's groups that share servers (and a selector); optional.</param>
    public ReplicaGroup(
        IReplicaSelector selector,
        ReplicaGroupOptions? options = null,
        TimeProvider? timeProvider = null,
        ReplicaGroupCoordinator? coordinator = null)
    {
        ArgumentNullException.ThrowIfNull(selector);
        _options = options ?? new ReplicaGroupOptions();
        _options.Validate();
        _selector = selector;
        _timeProvider = timeProvider ?? TimeProvider.System;
        _coordinator = coordinator;
        _lock = coordinator?.SyncRoot ?? new Lock();
        _timer = _timeProvider.CreateTimer(static state => ((ReplicaGroup)state!).Pump(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        coordinator?.Register(this);
    }

    /// <summary>Gets a snapshot of the replicas.</summary>
    public IReadOnlyList<ReplicaState> Replicas => Volatile.Read(ref _replicas);

    /// <summary>Gets the number of requests waiting in the backlog.</summary>
    public int BacklogLength
    {
        get
        {
            lock (_lock)
            {
                return _backlog.Count;
            }
        }
    }

    /// <summary>Sets the group's replicas; replicas that stay keep what was learned about them.</summary>
    /// <param name="ids">The replica ids (addresses).</param>
    public void SetReplicas(IEnumerable<string> ids)
    {
        ArgumentNullException.ThrowIfNull(ids);
        lock (_lock)
        {
            var next = new List<ReplicaState>();
            foreach (var id in ids)
            {
                if (next.Exists(r => r.Id == id))
                {
                    continue;
                }

                next.Add(Array.Find(_replicas, r => r.Id == id) ?? new ReplicaState(id));
            }

            Volatile.Write(ref _replicas, next.ToArray());
        }

        Pump();
    }

    /// <summary>
    /// Sets the group's replicas to states owned by the caller. Groups that share a server should share its
    /// <see cref="ReplicaState"/>, so its outstanding count and rate limiter are per server, as C3 intends, and not
    /// per group.
    /// </summary>
    /// <param name="replicas">The replica states; duplicates (by reference) are ignored.</param>
    public void SetReplicas(IEnumerable<ReplicaState> replicas)
    {
        ArgumentNullException.ThrowIfNull(replicas);
        lock (_lock)
        {
            var next = new List<ReplicaState>();
            foreach (var replica in replicas)
            {
                ArgumentNullException.ThrowIfNull(replica, nameof(replicas));
                if (!next.Contains(replica))
                {
                    next.Add(replica);
                }
            }

            Volatile.Write(ref _replicas, next.ToArray());
        }

        Pump();
    }

    /// <summary>Marks a replica down (skipped by selectors) or up again.</summary>
    /// <param name="id">The replica id.</param>
    /// <param name="isDown">Whether it is down.</param>
    public void SetDown(string id, bool isDown)
    {
        lock (_lock)
        {
            foreach (var replica in _replicas)
            {
                if (replica.Id == id)
                {
                    replica.IsDown = isDown;
                }
            }
        }

        Pump();
    }

    /// <summary>Chooses the replica for a request, waiting in the backlog while every replica is over its rate.</summary>
    /// <param name="cancellationToken">Cancels the wait.</param>
    /// <returns>The pick, or a failure with its reason (empty group, all replicas down, backlog full).</returns>
    /// <exception cref="OperationCanceledException">The wait was cancelled.</exception>
    public ValueTask<ReplicaPick> PickAsync(CancellationToken cancellationToken = default)
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<ReplicaPick>(cancellationToken);
        }

        WaitNode<ReplicaPick, int> waiter;
        lock (_lock)
        {
            if (_options.ServeLocally && FindLocked(_options.LocalReplicaId!) is { IsDown: false } local)
            {
                return new ValueTask<ReplicaPick>(new ReplicaPick(local, isLocal: true, null));
            }

            var now = _timeProvider.GetTimestamp();
            if (_backlog.Count == 0)
            {
                var choice = _selector.Choose(_replicas, now);
                if (choice.Kind == ReplicaChoiceKind.Replica)
                {
                    return new ValueTask<ReplicaPick>(SendLocked(choice.Index, now));
                }

                if (choice.Kind == ReplicaChoiceKind.Fail)
                {
                    return new ValueTask<ReplicaPick>(new ReplicaPick(null, false, choice.Reason));
                }
            }

            if (_backlog.Count >= _options.MaxBacklog)
            {
                return new ValueTask<ReplicaPick>(new ReplicaPick(null, false, $"The replica group's backlog is full ({_options.MaxBacklog} waiting)."));
            }

            waiter = _pool.Count > 0 ? _pool.Pop() : new WaitNode<ReplicaPick, int>(this);
            waiter.Reset(_options.RunContinuationsAsynchronously, cancellationToken);
            _backlog.PushBack(waiter);
            ArmTimerLocked(now);
        }

        waiter.RegisterCancellation();
        return waiter.AsValueTask();
    }

    /// <summary>
    /// Chooses the replica for a request without waiting, for hosts that queue picks themselves (grpc-dotnet's
    /// balancer re-runs a queued pick when a new picker is published).
    /// </summary>
    /// <param name="pick">The pick, or a failure with its reason (empty group, all replicas down), when this returns <see langword="true"/>.</param>
    /// <param name="retryAfter">
    /// When this returns <see langword="false"/>, how long until the selector expects a replica to be available
    /// (<see cref="IBackpressureAware"/>), or <see langword="null"/> when only a response can free one.
    /// </param>
    /// <returns><see langword="false"/> when every replica is over its rate and the request must wait.</returns>
    public bool TryPick(out ReplicaPick pick, out TimeSpan? retryAfter)
    {
        retryAfter = null;
        lock (_lock)
        {
            if (_options.ServeLocally && FindLocked(_options.LocalReplicaId!) is { IsDown: false } local)
            {
                pick = new ReplicaPick(local, isLocal: true, null);
                return true;
            }

            var now = _timeProvider.GetTimestamp();
            var choice = _selector.Choose(_replicas, now);
            switch (choice.Kind)
            {
                case ReplicaChoiceKind.Replica:
                    pick = SendLocked(choice.Index, now);
                    return true;
                case ReplicaChoiceKind.Fail:
                    pick = new ReplicaPick(null, false, choice.Reason);
                    return true;
                default:
                    pick = default;
                    if (_selector is IBackpressureAware aware && aware.TimeUntilAvailable(_replicas, now) is { } wait)
                    {
                        retryAfter = TimeSpan.FromTicks((long)Math.Ceiling((double)Math.Max(1, wait) * TimeSpan.TicksPerSecond / _timeProvider.TimestampFrequency));
                    }

                    return false;
            }
        }
    }

    /// <summary>
    /// Gets how long until a replica can take a request, as the selector sees it (<see cref="IBackpressureAware"/>):
    /// zero when one can now, <see langword="null"/> when the selector cannot tell (it does not hold requests back by
    /// rate, or only a response can free a replica).
    /// </summary>
    /// <returns>The wait, or <see langword="null"/>.</returns>
    public TimeSpan? TimeUntilAvailable()
    {
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            if (_selector is not IBackpressureAware aware || aware.TimeUntilAvailable(_replicas, now) is not { } wait)
            {
                return null;
            }

            return wait <= 0 ? TimeSpan.Zero : TimeSpan.FromTicks((long)Math.Ceiling((double)wait * TimeSpan.TicksPerSecond / _timeProvider.TimestampFrequency));
        }
    }

    /// <summary>Reports the response (or failure) of a request sent to <paramref name="replica"/>.</summary>
    /// <param name="replica">The replica the pick returned; a replica no longer in the group is handled safely.</param>
    /// <param name="feedback">What the response said.</param>
    public void Complete(ReplicaState replica, in ReplicaFeedback feedback)
    {
        ArgumentNullException.ThrowIfNull(replica);
        lock (_lock)
        {
            if (replica.Outstanding > 0)
            {
                replica.Outstanding--;
            }

            _selector.OnFeedback(replica, feedback, _timeProvider.GetTimestamp());
        }

        Pump();
    }

    /// <summary>
    /// Takes back a pick whose request was never sent (its host could not use the replica after all): the replica's
    /// outstanding count drops, and the selector learns nothing, since there was no response.
    /// </summary>
    /// <param name="replica">The replica the pick returned.</param>
    public void Release(ReplicaState replica)
    {
        ArgumentNullException.ThrowIfNull(replica);
        lock (_lock)
        {
            if (replica.Outstanding > 0)
            {
                replica.Outstanding--;
            }
        }

        Pump();
    }

    /// <inheritdoc />
    public void Dispose()
    {
        _timer.Dispose();
        _coordinator?.Unregister(this);
    }

    void IWaitNodeOwner<ReplicaPick, int>.OnCancelled(WaitNode<ReplicaPick, int> node)
    {
        lock (_lock)
        {
            if (!node.IsQueued)
            {
                return;
            }

            for (var i = 0; i < _backlog.Count; i++)
            {
                if (ReferenceEquals(_backlog[i], node))
                {
                    _backlog.RemoveAt(i);
                    break;
                }
            }

            node.IsQueued = false;
        }

        node.SetCanceled();
    }

    void IWaitNodeOwner<ReplicaPick, int>.Return(WaitNode<ReplicaPick, int> node)
    {
        lock (_lock)
        {
            if (_pool.Count < 256)
            {
                _pool.Push(node);
            }
        }
    }

    private void Pump()
    {
        if (_coordinator is not null)
        {
            _coordinator.PumpFairly();
            return;
        }

        while (TryReleaseOne())
        {
        }
    }

    /// <summary>Releases the backlog's oldest request if the selector now has a replica (or a failure) for it.</summary>
    internal bool TryReleaseOne()
    {
        WaitNode<ReplicaPick, int>? waiter;
        ReplicaPick pick;
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            _timerDue = long.MaxValue;
            if (!_backlog.TryPeekFront(out waiter))
            {
                return false;
            }

            var choice = _selector.Choose(_replicas, now);
            if (choice.Kind == ReplicaChoiceKind.Backlog)
            {
                ArmTimerLocked(now);
                return false;
            }

            pick = choice.Kind == ReplicaChoiceKind.Replica ? SendLocked(choice.Index, now) : new ReplicaPick(null, false, choice.Reason);
            _backlog.TryPopFront(out _);
            waiter!.IsQueued = false;
        }

        waiter.SetResult(pick);
        return true;
    }

    private ReplicaPick SendLocked(int index, long now)
    {
        var replica = _replicas[index];
        replica.Outstanding++;
        _selector.OnSent(replica, now);
        return new ReplicaPick(replica, isLocal: false, null);
    }

    private void ArmTimerLocked(long now)
    {
        if (_backlog.Count == 0 || _selector is not IBackpressureAware aware || aware.TimeUntilAvailable(_replicas, now) is not { } wait)
        {
            return;
        }

        var due = now + Math.Max(1, wait);
        if (due >= _timerDue)
        {
            return;
        }

        _timerDue = due;
        var ticks = (long)Math.Ceiling((double)(due - now) * TimeSpan.TicksPerSecond / _timeProvider.TimestampFrequency);
        _timer.Change(TimeSpan.FromTicks(Math.Max(1, ticks)), Timeout.InfiniteTimeSpan);
    }

    private ReplicaState? FindLocked(string id) => Array.Find(_replicas, r => r.Id == id);
}
