// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// The replica-client engine of one client (C3 Algorithm 1, with Wu's local fast path): the client's view of every
/// replica (<see cref="ReplicaState"/>: outstanding count, selector state, down flag), its replica groups, one FIFO
/// backlog per group for the requests the selector holds back, and the back-off of replicas that refuse calls. The
/// grpc-dotnet balancer (through <see cref="ReplicaGroup"/>), the topology simulator and the C3 simulation all run it.
/// </summary>
/// <remarks>
/// <para>A synchronous state machine: time enters only as the <c>now</c> timestamps passed in (of a clock with the
/// frequency given at construction), and the engine never blocks, starts a timer or takes a lock: the host serialises
/// the calls (a lock, or a single-threaded event loop) and schedules the call-backs it is asked for
/// (<see cref="IReplicaClientHost{TRequest}"/>). Given the same calls, it makes the same selector calls in the same
/// order, so a seeded simulation is reproducible bit for bit.</para>
/// <para>Invariants:</para>
/// <list type="number">
/// <item>A request waits in at most one backlog, once, and leaves it exactly once: dispatched, failed or removed.</item>
/// <item>Each backlog is FIFO, and a request never overtakes one that waits in its group: while the backlog is not
/// empty a new request queues behind it without asking the selector.</item>
/// <item>A replica's <see cref="ReplicaState.Outstanding"/> counts the sends reported minus the completions and
/// releases reported, and never goes below zero.</item>
/// <item>A replica that refused a call is down for a back-off that starts at
/// <see cref="ReplicaGroupOptions.DefaultInitialBackoff"/> and doubles up to
/// <see cref="ReplicaGroupOptions.DefaultMaxBackoff"/> while it keeps refusing; a response that is not a failure
/// resets it. Its end (<see cref="OnBackoffEnd(int, long)"/>) marks the replica up, to be tried by real calls.</item>
/// <item>A retry timer is asked for only when it is due before the one already armed for the group; a firing before
/// the armed due is stale and ignored (<see cref="OnRetryTimer(int, long)"/>).</item>
/// <item>With <see cref="ReplicaClientEngineOptions.AutoRelease"/>, a response, a release or a back-off end retries
/// the backlogs of the groups holding that replica, in the order of the replica's place in them (first the groups it
/// leads); a request is released only when the selector answers a replica or a failure for it.</item>
/// <item>A backlog whose selector cannot tell when a replica frees up (<see cref="IBackpressureAware"/>) and whose
/// group has no request outstanding fails at once: nothing would ever release it.</item>
/// </list>
/// </remarks>
/// <typeparam name="TRequest">The host's request.</typeparam>
public sealed partial class ReplicaClientEngine<TRequest>
{
    private readonly IReplicaSelector _selector;
    private readonly IReplicaClientHost<TRequest> _host;
    private readonly ReplicaClientEngineOptions _options;
    private readonly long _frequency;
    private readonly ReplicaBackoff _backoffs;
    private readonly ReplicaGroupMap _map = new();
    private readonly ReplicaBacklogs<TRequest> _backlogs;

    /// <summary>Creates an engine with no replicas (<see cref="SetReplicas(ReplicaState[], int[][])"/>).</summary>
    /// <param name="selector">The selection policy; the engine calls it and nothing else does.</param>
    /// <param name="host">Sends, fails and schedules for the engine.</param>
    /// <param name="frequency">Timestamps per second of the clock whose <c>now</c> values are passed in.</param>
    public ReplicaClientEngine(IReplicaSelector selector, IReplicaClientHost<TRequest> host, long frequency)
        : this(selector, host, frequency, null)
    {
    }

    /// <summary>Creates an engine with options (<see cref="ReplicaGroup"/>: a bounded backlog it releases itself).</summary>
    /// <param name="selector">The selection policy; the engine calls it and nothing else does.</param>
    /// <param name="host">Sends, fails and schedules for the engine.</param>
    /// <param name="frequency">Timestamps per second of the clock whose <c>now</c> values are passed in.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    internal ReplicaClientEngine(IReplicaSelector selector, IReplicaClientHost<TRequest> host, long frequency, ReplicaClientEngineOptions? options)
    {
        ArgumentNullException.ThrowIfNull(selector);
        ArgumentNullException.ThrowIfNull(host);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(frequency, 0);
        _options = options ?? new ReplicaClientEngineOptions();
        _options.Validate();
        _selector = selector;
        _host = host;
        _frequency = frequency;
        _backlogs = new ReplicaBacklogs<TRequest>(selector, host, _options, _map);
        _backoffs = new ReplicaBackoff(ToTimestamp(_options.InitialBackoff), ToTimestamp(_options.MaxBackoff));
    }

    /// <summary>Gets the selector.</summary>
    internal IReplicaSelector Selector => _selector;

    /// <summary>Gets the replicas, by index.</summary>
    internal IReadOnlyList<ReplicaState> Replicas => _map.Replicas;

    /// <summary>Gets how many groups there are.</summary>
    internal int GroupCount => _map.Views.Length;

    /// <summary>Gets how many requests have ever waited in a backlog.</summary>
    public long Backlogged => _backlogs.Backlogged;

    /// <summary>
    /// Gets or sets the id of this process's own replica (Wu's local fast path): a request for a group that holds it
    /// goes to it directly, without the selector, its rate limiters or the backlog, while it is up.
    /// <see langword="null"/> (the default) turns the fast path off.
    /// </summary>
    public string? LocalReplicaId
    {
        get => _map.LocalId;
        set => _map.LocalId = value;
    }

    /// <summary>
    /// Sets the replicas and the groups over them. Backlogs carry over when the number of groups stays, so a host
    /// that re-sets its one group's replicas keeps its waiting requests; back-offs start afresh.
    /// </summary>
    /// <param name="replicas">The replica states; a state may be shared with other engines.</param>
    /// <param name="groups">Each group's replicas, as indices into <paramref name="replicas"/>.</param>
    /// <exception cref="ArgumentException">An index is out of range.</exception>
    public void SetReplicas(ReplicaState[] replicas, int[][] groups)
    {
        ArgumentNullException.ThrowIfNull(replicas);
        ArgumentNullException.ThrowIfNull(groups);
        _map.Set(replicas, groups);
        _backlogs.Resize(groups.Length);
        _backoffs.Clear();
    }

    /// <summary>Gets the index of a replica state, or -1 when it is not one of the engine's.</summary>
    /// <param name="replica">The state.</param>
    /// <returns>Its index in <see cref="Replicas"/>.</returns>
    internal int IndexOf(ReplicaState replica) => Array.IndexOf(_map.Replicas, replica);

    /// <summary>Gets how many requests wait in a group's backlog.</summary>
    /// <param name="group">The group.</param>
    /// <returns>The count.</returns>
    internal int BacklogLength(int group) => _backlogs.Count(group);

    /// <summary>Routes a request: dispatches, fails, or queues it in its group's backlog, through the host.</summary>
    /// <param name="request">The request.</param>
    /// <param name="group">Its group.</param>
    /// <param name="now">The current timestamp.</param>
    public void Route(TRequest request, int group, long now)
    {
        if (TryRoute(group, now, out var replica, out var isLocal, out var failure))
        {
            if (failure is null)
            {
                _host.Dispatch(request, replica, isLocal);
            }
            else
            {
                _host.Fail(request, failure);
            }

            return;
        }

        if (!TryEnqueue(request, group, now))
        {
            _host.Fail(request, BacklogFull());
        }
    }

    /// <summary>
    /// Routes a request without queueing it: the local replica, the selector's replica, or a failure; or
    /// <see langword="false"/> when it must wait (the group's backlog is not empty, or every replica is over its rate).
    /// </summary>
    /// <param name="group">The request's group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <param name="replica">The replica's index, when one was chosen; else -1.</param>
    /// <param name="isLocal">Whether it is the local replica (the fast path).</param>
    /// <param name="failure">Why no replica can take it, when none can.</param>
    /// <returns><see langword="false"/> when the request must wait.</returns>
    internal bool TryRoute(int group, long now, out int replica, out bool isLocal, out string? failure)
    {
        isLocal = false;
        failure = null;
        replica = -1;
        if (_map.HoldsLocal[group] && !_map.Replicas[_map.Local].IsDown)
        {
            replica = _map.Local;
            isLocal = true;
            return true;
        }

        if (_backlogs.Count(group) > 0)
        {
            // Keep FIFO order behind requests already held back for this group.
            return false;
        }

        var choice = _selector.Choose(_map.Views[group], now);
        switch (choice.Kind)
        {
            case ReplicaChoiceKind.Replica:
                replica = _map.Members[group][choice.Index];
                return true;
            case ReplicaChoiceKind.Fail:
                failure = choice.Reason ?? "No replica can take the request.";
                return true;
            default:
                return false;
        }
    }

    /// <summary>Queues a request that must wait (<see cref="TryRoute"/> said so) and arms its group's retry.</summary>
    /// <param name="request">The request.</param>
    /// <param name="group">Its group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns><see langword="false"/> when the backlog is full (<see cref="ReplicaClientEngineOptions.MaxBacklog"/>); the request is not queued.</returns>
    internal bool TryEnqueue(TRequest request, int group, long now) => _backlogs.TryEnqueue(request, group, now);

    /// <summary>Takes a waiting request out of its backlog (its caller gave up).</summary>
    /// <param name="request">The request.</param>
    /// <param name="group">Its group.</param>
    /// <returns>Whether it was waiting.</returns>
    internal bool Remove(TRequest request, int group) => _backlogs.Remove(request, group);

    /// <summary>A request was sent to a replica: it counts as outstanding, and the selector learns of it.</summary>
    /// <param name="replica">The replica's index.</param>
    /// <param name="now">The send's timestamp.</param>
    public void OnSent(int replica, long now) => OnSent(_map.Replicas[replica], now);

    /// <summary>A request was sent to a replica, which may no longer be one of the engine's (a host's set changed).</summary>
    /// <param name="replica">The replica's state.</param>
    /// <param name="now">The send's timestamp.</param>
    internal void OnSent(ReplicaState replica, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        replica.Outstanding++;
        _selector.OnSent(replica, now);
    }

    /// <summary>A replica answered (or a call to it failed): the selector learns from it, and waiting requests are retried.</summary>
    /// <param name="replica">The replica's index.</param>
    /// <param name="feedback">What the response said.</param>
    /// <param name="now">The response's timestamp.</param>
    public void Complete(int replica, in ReplicaFeedback feedback, long now) => Complete(_map.Replicas[replica], replica, feedback, now);

    /// <summary>A replica answered; the replica may no longer be one of the engine's, which only the selector then learns.</summary>
    /// <param name="replica">The replica's state.</param>
    /// <param name="feedback">What the response said.</param>
    /// <param name="now">The response's timestamp.</param>
    internal void Complete(ReplicaState replica, in ReplicaFeedback feedback, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        Complete(replica, IndexOf(replica), feedback, now);
    }

    /// <summary>Takes back a send that never happened: the outstanding count drops and the selector learns nothing.</summary>
    /// <param name="replica">The replica's state.</param>
    /// <param name="now">The current timestamp.</param>
    internal void Release(ReplicaState replica, long now)
    {
        ArgumentNullException.ThrowIfNull(replica);
        if (replica.Outstanding > 0)
        {
            replica.Outstanding--;
        }

        _backlogs.RetryHolding(IndexOf(replica), now);
    }

    /// <summary>
    /// A call found the replica dead (refused): the feedback counts as a failure, and the replica is down for its
    /// back-off (<see cref="IReplicaClientHost{TRequest}.ScheduleBackoffEnd"/>), then tried again by real calls.
    /// </summary>
    /// <param name="replica">The replica's index.</param>
    /// <param name="feedback">The failed call's feedback.</param>
    /// <param name="now">The current timestamp.</param>
    public void OnUnavailable(int replica, in ReplicaFeedback feedback, long now)
    {
        var view = _map.Replicas[replica];
        var backoff = _backoffs.Next(replica, _map.Replicas.Length);
        if (!view.IsDown)
        {
            view.IsDown = true;
            _host.ScheduleBackoffEnd(replica, now + backoff);
        }

        Complete(view, replica, feedback, now);
    }

    /// <summary>A replica's back-off ended: it is up again, and the groups holding it are retried.</summary>
    /// <param name="replica">The replica's index.</param>
    /// <param name="now">The current timestamp.</param>
    public void OnBackoffEnd(int replica, long now) => SetDown(replica, false, now);

    /// <summary>Marks a replica down (selectors skip it) or up; either may let waiting requests go (to another replica, or fail).</summary>
    /// <param name="replica">The replica's index.</param>
    /// <param name="isDown">Whether it is down.</param>
    /// <param name="now">The current timestamp.</param>
    internal void SetDown(int replica, bool isDown, long now)
    {
        _map.Replicas[replica].IsDown = isDown;
        _backlogs.RetryHolding(replica, now);
    }

    /// <summary>
    /// Gets how long until a replica of the group can take a request, as the selector sees it
    /// (<see cref="IBackpressureAware"/>), in timestamps: zero or less when one can now; <see langword="null"/> when
    /// the selector cannot tell.
    /// </summary>
    /// <param name="group">The group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>The wait, or <see langword="null"/>.</returns>
    internal long? TimeUntilAvailable(int group, long now) => _backlogs.TimeUntilAvailable(group, now);

    private long ToTimestamp(TimeSpan span) => (long)((double)span.Ticks * _frequency / TimeSpan.TicksPerSecond);

    private string BacklogFull() => $"The replica group's backlog is full ({_options.MaxBacklog} waiting).";
}
