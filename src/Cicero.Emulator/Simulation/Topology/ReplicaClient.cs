// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// One caller instance's replica selection towards a blocks-routed service: a selector from the policy catalog, one
/// <see cref="ReplicaState"/> per callee instance shared by every replica group holding it, and a FIFO backlog per group
/// for selectors that hold requests back (C3's rate control), retried on replies and by a timer, as in the C3 simulation.
/// With the local fast path on (<c>ReplicaGroupOptions.ServeLocally</c>), a group that holds the caller itself is served
/// by the caller, bypassing the selector, its rate limiters and the backlog, as Core's <c>ReplicaGroup</c> does.
/// </summary>
internal sealed class ReplicaClient
{
    private static readonly Action<object?> OnTimer = static state => ((Backlog)state!).Client.Timer((Backlog)state);
    private static readonly Action<object?> OnBackoffEnd = static state =>
    {
        var (client, target) = ((ReplicaClient, int))state!;
        client.BackoffEnd(target);
    };

    private static readonly long MinBackoffTicks = TimeSpan.FromMilliseconds(250).Ticks;
    private static readonly long MaxBackoffTicks = TimeSpan.FromSeconds(5).Ticks;
    private readonly TopologySimulation _simulation;
    private readonly IReplicaSelector _selector;
    private readonly ReplicaState[] _views;
    private readonly ReplicaState[][] _groups;
    private readonly Backlog[] _backlogs;
    private readonly int _replication;
    private readonly int _local;
    private long[]? _backoffTicks;

    // local: the caller's own index among the callee's instances when it serves its copies itself; else -1.
    public ReplicaClient(TopologySimulation simulation, IReplicaSelector selector, ServiceDef target, int replication, int local)
    {
        _simulation = simulation;
        _selector = selector;
        _replication = replication;
        _local = local;
        var n = target.Instances;
        _views = new ReplicaState[n];
        for (var i = 0; i < n; i++)
        {
            _views[i] = new ReplicaState(target.Name + "-" + i.ToString(CultureInfo.InvariantCulture));
        }

        _groups = new ReplicaState[n][];
        _backlogs = new Backlog[n];
        for (var start = 0; start < n; start++)
        {
            _groups[start] = new ReplicaState[replication];
            for (var r = 0; r < replication; r++)
            {
                _groups[start][r] = _views[(start + r) % n];
            }

            _backlogs[start] = new Backlog(this, start);
        }
    }

    public void Route(RpcFrame frame, int groupStart)
    {
        if (_local >= 0 && !_views[_local].IsDown && (_local - groupStart + _views.Length) % _views.Length < _replication)
        {
            frame.ProceedLocally(_local);
            return;
        }

        var backlog = _backlogs[groupStart];
        if (backlog.Waiting.Count > 0)
        {
            // Keep FIFO order behind requests already held back for this group.
            backlog.Waiting.Enqueue(frame);
            return;
        }

        var choice = _selector.Choose(_groups[groupStart], _simulation.Now);
        switch (choice.Kind)
        {
            case ReplicaChoiceKind.Replica:
                frame.Proceed((groupStart + choice.Index) % _views.Length);
                break;
            case ReplicaChoiceKind.Backlog:
                backlog.Waiting.Enqueue(frame);
                ArmTimer(backlog);
                break;
            default:
                frame.FailNoReplica();
                break;
        }
    }

    public void OnSent(int target, long now)
    {
        _views[target].Outstanding++;
        _selector.OnSent(_views[target], now);
    }

    public void OnFeedback(int target, in ReplicaFeedback feedback, long now)
    {
        var view = _views[target];
        if (view.Outstanding > 0)
        {
            view.Outstanding--;
        }

        _selector.OnFeedback(view, feedback, now);
        if (!feedback.Failed)
        {
            ResetBackoff(target);
        }

        // A reply may have raised the replica's rate: retry every group that holds this instance.
        for (var r = 0; r < _replication; r++)
        {
            var start = target - r;
            var backlog = _backlogs[start < 0 ? start + _views.Length : start];
            if (backlog.Waiting.Count > 0)
            {
                Pump(backlog);
            }
        }
    }

    /// <summary>
    /// A call found the instance dead: the feedback counts as a failure, and the instance is skipped for a back-off
    /// (250 ms, doubling to 5 s while it stays dead, as Cicero.Grpc's balancer does), then tried again by real calls.
    /// </summary>
    public void OnUnavailable(int target, in ReplicaFeedback feedback, long now)
    {
        var view = _views[target];
        _backoffTicks ??= new long[_views.Length];
        var backoff = _backoffTicks[target] = Math.Clamp(_backoffTicks[target] * 2, MinBackoffTicks, MaxBackoffTicks);
        if (!view.IsDown)
        {
            view.IsDown = true;
            _simulation.Clock.ScheduleAt(now + backoff, OnBackoffEnd, (this, target));
        }

        OnFeedback(target, feedback, now);
    }

    private void BackoffEnd(int target)
    {
        _views[target].IsDown = false;
        for (var r = 0; r < _replication; r++)
        {
            var start = target - r;
            var backlog = _backlogs[start < 0 ? start + _views.Length : start];
            if (backlog.Waiting.Count > 0)
            {
                Pump(backlog);
            }
        }
    }

    /// <summary>A reply came: the instance is alive, so its next failure starts the back-off from the bottom again.</summary>
    private void ResetBackoff(int target)
    {
        if (_backoffTicks is not null)
        {
            _backoffTicks[target] = 0;
        }
    }

    private void Timer(Backlog backlog)
    {
        if (backlog.TimerDue != _simulation.Now)
        {
            return;
        }

        backlog.TimerDue = long.MaxValue;
        Pump(backlog);
    }

    private void Pump(Backlog backlog)
    {
        while (backlog.Waiting.TryPeek(out var frame))
        {
            var choice = _selector.Choose(_groups[backlog.Start], _simulation.Now);
            if (choice.Kind == ReplicaChoiceKind.Backlog)
            {
                ArmTimer(backlog);
                return;
            }

            backlog.Waiting.Dequeue();
            if (choice.Kind == ReplicaChoiceKind.Replica)
            {
                frame.Proceed((backlog.Start + choice.Index) % _views.Length);
            }
            else
            {
                frame.FailNoReplica();
            }
        }
    }

    private void ArmTimer(Backlog backlog)
    {
        var now = _simulation.Now;
        if (_selector is not IBackpressureAware aware || aware.TimeUntilAvailable(_groups[backlog.Start], now) is not { } wait)
        {
            // Nothing will free a replica by itself; fail what waits rather than lose it.
            while (backlog.Waiting.TryDequeue(out var frame))
            {
                frame.FailNoReplica();
            }

            return;
        }

        var due = now + Math.Max(1, wait);
        if (due < backlog.TimerDue)
        {
            backlog.TimerDue = due;
            _simulation.Clock.ScheduleAt(due, OnTimer, backlog);
        }
    }

    private sealed class Backlog(ReplicaClient client, int start)
    {
        public ReplicaClient Client { get; } = client;

        public int Start { get; } = start;

        public Queue<RpcFrame> Waiting { get; } = new();

        public long TimerDue { get; set; } = long.MaxValue;
    }
}
