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
/// A thread-safe, asynchronous adapter of <see cref="ReplicaClientEngine{TRequest}"/> with one group: the engine, and
/// so the selector, is called under the group's lock. A pick that does not wait completes synchronously and
/// allocates nothing. Waiters are released by a timer on the injected <see cref="TimeProvider"/>, so a virtual clock
/// drives the backlog deterministically. With <see cref="ReplicaGroupOptions.ServeLocally"/>, requests go straight to
/// this process's own replica (Wu's local fast path).
/// </remarks>
public sealed partial class ReplicaGroup : IWaitNodeOwner<ReplicaPick, int>, IDisposable
{
    private const int Group = 0;
    private readonly Lock _lock;
    private readonly ReplicaGroupCoordinator? _coordinator;
    private readonly ReplicaGroupOptions _options;
    private readonly TimeProvider _timeProvider;
    private readonly ReplicaClientEngine<WaitNode<ReplicaPick, int>> _engine;
    private readonly Stack<WaitNode<ReplicaPick, int>> _pool = new();
    private readonly List<(WaitNode<ReplicaPick, int> Waiter, string Reason)> _failed = [];
    private readonly ITimer _timer;
    private ReplicaState[] _replicas = [];

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
        _timeProvider = timeProvider ?? TimeProvider.System;
        _coordinator = coordinator;
        _lock = coordinator?.SyncRoot ?? new Lock();

        // The group releases its waiters itself, outside the lock, and with a coordinator one group at a time.
        var engineOptions = new ReplicaClientEngineOptions { MaxBacklog = _options.MaxBacklog, AutoRelease = false };
        _engine = new ReplicaClientEngine<WaitNode<ReplicaPick, int>>(selector, new Host(this), _timeProvider.TimestampFrequency, engineOptions)
        {
            LocalReplicaId = _options.ServeLocally ? _options.LocalReplicaId : null,
        };
        _engine.SetReplicas([], [[]]);
        _timer = _timeProvider.CreateTimer(static state => ((ReplicaGroup)state!).OnTimer(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
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
                return _engine.BacklogLength(Group);
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

            SetLocked(next);
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

            SetLocked(next);
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
            var now = _timeProvider.GetTimestamp();
            for (var i = 0; i < _replicas.Length; i++)
            {
                if (_replicas[i].Id == id)
                {
                    _engine.SetDown(i, isDown, now);
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
            var now = _timeProvider.GetTimestamp();
            if (TryRouteLocked(now, out var pick))
            {
                return new ValueTask<ReplicaPick>(pick);
            }

            if (_engine.BacklogLength(Group) >= _options.MaxBacklog)
            {
                return new ValueTask<ReplicaPick>(new ReplicaPick(null, false, $"The replica group's backlog is full ({_options.MaxBacklog} waiting)."));
            }

            waiter = _pool.Count > 0 ? _pool.Pop() : new WaitNode<ReplicaPick, int>(this);
            waiter.Reset(_options.RunContinuationsAsynchronously, cancellationToken);
            _engine.TryEnqueue(waiter, Group, now);
        }

        waiter.RegisterCancellation();
        CompleteFailed();
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
            var now = _timeProvider.GetTimestamp();
            if (TryRouteLocked(now, out pick))
            {
                return true;
            }

            if (_engine.TimeUntilAvailable(Group, now) is { } wait)
            {
                retryAfter = ToTimeSpan(Math.Max(1, wait));
            }

            return false;
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
            return _engine.TimeUntilAvailable(Group, _timeProvider.GetTimestamp()) is not { } wait
                ? null
                : wait <= 0 ? TimeSpan.Zero : ToTimeSpan(wait);
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
            _engine.Complete(replica, feedback, _timeProvider.GetTimestamp());
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
            _engine.Release(replica, _timeProvider.GetTimestamp());
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

            _engine.Remove(node, Group);
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

    /// <summary>Releases the backlog's oldest request if the selector now has a replica (or a failure) for it.</summary>
    internal bool TryReleaseOne()
    {
        WaitNode<ReplicaPick, int> waiter;
        var pick = default(ReplicaPick);
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            if (!_engine.TryReleaseOne(Group, now, out waiter, out var index, out var failure))
            {
                waiter = null!;
            }
            else
            {
                pick = failure is null ? SendLocked(index, now) : new ReplicaPick(null, false, failure);
                waiter.IsQueued = false;
            }
        }

        CompleteFailed();
        if (waiter is null)
        {
            return false;
        }

        waiter.SetResult(pick);
        return true;
    }

    private void SetLocked(List<ReplicaState> next)
    {
        var replicas = next.ToArray();
        _engine.SetReplicas(replicas, [[.. Enumerable.Range(0, replicas.Length)]]);
        Volatile.Write(ref _replicas, replicas);
    }

    private bool TryRouteLocked(long now, out ReplicaPick pick)
    {
        if (!_engine.TryRoute(Group, now, out var index, out var isLocal, out var failure))
        {
            pick = default;
            return false;
        }

        pick = failure is not null ? new ReplicaPick(null, false, failure)
            : isLocal ? new ReplicaPick(_replicas[index], isLocal: true, null)
            : SendLocked(index, now);
        return true;
    }

    private ReplicaPick SendLocked(int index, long now)
    {
        _engine.OnSent(index, now);
        return new ReplicaPick(_replicas[index], isLocal: false, null);
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
}
