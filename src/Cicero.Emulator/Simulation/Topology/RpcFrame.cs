// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Emulator.Scenarios;
using Cicero.ReplicaSelection;
using Cicero.Resources;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// One RPC: pick the callee instance by the route (possibly waiting in a replica selector's backlog), hold a connection
/// of the caller's pool, cross the network, run the callee's handler, cross back. A timeout (the RPC timeout, or the
/// time left to the deadline if shorter) ends the call for the caller; the callee is not told and keeps working.
/// </summary>
internal sealed class RpcFrame : LeaseFrame, IHandlerParent
{
    private static readonly Action<object?> OnArrive = static state => ((RpcFrame)state!).Arrive();
    private static readonly Action<object?> OnReply = static state => ((RpcFrame)state!).Reply();
    private static readonly Action<object?> OnTimeout = static state => ((TimeoutHandle)state!).Frame?.Timeout();
    private readonly Handler _caller;
    private readonly CallStep _step;
    private readonly IStepParent _parent;
    private readonly TopologySimulation _simulation;
    private readonly int _fixedReplica;
    private int _groupStart;
    private ReplicaClient? _client;
    private SimInstance? _target;
    private SubtaskLease _connection;
    private long _connectionAt;
    private long _sentAt;
    private bool _sent;
    private bool _done;
    private Outcome _reply;
    private ProgressDelta _replyProgress;
    private double _replyQueue;
    private long _replyServiceTicks;
    private long _replyWaitTicks;
    private double _replyBackground;
    private long _hopTicks;
    private bool _inline;
    private bool _replyFailed;
    private TimeoutHandle? _timeout;

    public RpcFrame(Handler caller, CallStep step, IStepParent parent, int groupStart, int fixedReplica = -1)
    {
        _caller = caller;
        _step = step;
        _parent = parent;
        _simulation = caller.Instance.Simulation;
        _groupStart = groupStart;
        _fixedReplica = fixedReplica;
    }

    protected override TopologySimulation Simulation => _simulation;

    /// <summary>Picks a block of the request's partition and returns the start of its replica group.</summary>
    public static int PickBlockGroup(Handler caller, CallStep step)
    {
        var route = step.Route!;
        var request = caller.Request;
        var block = caller.Instance.Simulation.RoutingRandom.Next(route.BlocksPerPartition);
        return route.BlockGroupStarts![request.Workflow.Index][(request.Partition * route.BlocksPerPartition) + block];
    }

    public void Start()
    {
        var route = _step.Route;
        var instances = _step.Target.Instances;
        switch (route?.Strategy)
        {
            case RoutingStrategies.Blocks:
                if (_groupStart < 0)
                {
                    _groupStart = PickBlockGroup(_caller, _step);
                }

                if (_fixedReplica >= 0 || _step.ToPrimary)
                {
                    Proceed((_groupStart + Math.Max(0, _fixedReplica)) % instances);
                    return;
                }

                _client = _caller.Instance.GetReplicaClient(_step.Target, route);
                _client.Route(this, _groupStart);
                return;
            case RoutingStrategies.ConsistentHash:
                Proceed(route.PartitionOwners![_caller.Request.Workflow.Index][_caller.Request.Partition]);
                return;
            case RoutingStrategies.RoundRobin:
                Proceed(_caller.Instance.NextRoundRobin(_step.Target));
                return;
            default:
                Proceed(_simulation.RoutingRandom.Next(instances));
                return;
        }
    }

    /// <summary>
    /// Serves the call at the caller itself on its own thread (Wu's local fast path): no selector, no connection, no
    /// network, no queueing for the resources of its stages, and no feedback to the selector.
    /// </summary>
    public void ProceedLocally(int target)
    {
        _inline = true;
        _client = null;
        Proceed(target);
    }

    /// <summary>Sends the call to instance <paramref name="target"/> of the callee service.</summary>
    public void Proceed(int target)
    {
        _target = _simulation.Instances[_step.Target.Index][target];

        // A call to the caller's own process does not cross the network (a local read in a ring).
        _hopTicks = ReferenceEquals(_target, _caller.Instance) ? 0 : _simulation.NetworkTicks;
        var timeout = _simulation.RpcTimeoutTicks;
        if (_caller.Context.Deadline is { } deadline && !_caller.Request.SoftDeadline)
        {
            var left = deadline.Ticks - (_simulation.Now - _caller.Context.StartTimestamp);
            timeout = Math.Clamp(left, 0, timeout);
        }

        _timeout = new TimeoutHandle(this);
        _simulation.Clock.ScheduleAt(_simulation.Now + timeout, OnTimeout, _timeout);
        var pool = _caller.Instance.Service.ConnectionPool;
        if (pool >= 0 && !_inline)
        {
            Acquire(_caller.Instance.Resources[pool], _caller.Context, 1);
        }
        else
        {
            Send();
        }
    }

    /// <summary>The replica selector had no replica to offer (all down): the call fails.</summary>
    public void FailNoReplica()
    {
        MarkDone();
        _parent.OnStepDone(Outcome.Failed(Outcome.NoReplica));
    }

    public void OnHandlerDone(Handler handler, Outcome outcome)
    {
        if (!_target!.Serving.Remove(this) && !_inline)
        {
            // The callee was killed while serving this call: the caller already has its failure.
            return;
        }

        _reply = outcome;
        _replyProgress = handler.Context.Progress.Current;

        // What the server piggybacks (C3, Wu): its waiting queue, the time in service (residence minus queueing) and
        // the queueing time, and whether it is in a background period.
        _replyQueue = _target!.QueueLength;
        var residence = _simulation.Now - handler.ArrivedAt;
        _replyWaitTicks = Math.Min(handler.WaitTicks, residence);
        _replyServiceTicks = residence - _replyWaitTicks;
        _replyBackground = _target.InBackground ? 1 : 0;
        _simulation.Clock.ScheduleAt(_simulation.Now + _hopTicks, OnReply, this);
    }

    protected override void OnLease(SubtaskLease lease)
    {
        if (_done)
        {
            // The call timed out while waiting for a connection: give the connection straight back.
            if (lease.IsAcquired)
            {
                _caller.Instance.Release(_caller.Instance.Service.ConnectionPool, lease, _simulation.Now);
            }

            return;
        }

        if (!lease.IsAcquired)
        {
            MarkDone();
            _parent.OnStepDone(Outcome.Dropped(lease.RejectionReason));
            return;
        }

        _connection = lease;
        _connectionAt = _simulation.Now;
        Send();
    }

    private void Send()
    {
        _sent = true;
        _sentAt = _simulation.Now;
        _caller.Instance.Model.Get(_caller.Instance.Registry.Resolve(_caller.Context)).RecordDownstreamCall(_step.Target.Name, _target!.Id);
        _client?.OnSent(_target.Index, _sentAt);
        _simulation.Clock.ScheduleAt(_sentAt + _hopTicks, OnArrive, this);
    }

    private void Arrive()
    {
        if (_target!.IsDown && !_inline)
        {
            // A dead process refuses the connection: the caller learns it one hop later.
            ConnectionLost();
            return;
        }

        if (!_inline)
        {
            _target.Serving.Add(this);
        }

        new Handler(_target, _caller.Request, _caller.Context.ForDownstreamCall(), _step.Body, this, _caller.Instance.Id, isEntry: false, _inline).Start();
    }

    /// <summary>The callee died (or was dead): the caller sees the call fail, <c>unavailable</c>, one hop later.</summary>
    public void ConnectionLost()
    {
        _reply = Outcome.Failed(Outcome.Unavailable);
        _replyProgress = default;
        _replyFailed = true;
        _simulation.Clock.ScheduleAt(_simulation.Now + _hopTicks, OnReply, this);
    }

    private void Reply()
    {
        if (_done)
        {
            // The caller gave up already; the late reply is discarded (its feedback was the timeout's).
            return;
        }

        MarkDone();
        ReleaseConnection();
        var now = _simulation.Now;
        if (_replyFailed)
        {
            _client?.OnUnavailable(_target!.Index, new ReplicaFeedback(TimeSpan.FromTicks(now - _sentAt), 0, TimeSpan.Zero, failed: true), now);
            _parent.OnStepDone(_reply);
            return;
        }

        _client?.OnFeedback(
            _target!.Index,
            new ReplicaFeedback(TimeSpan.FromTicks(now - _sentAt), _replyQueue, TimeSpan.FromTicks(_replyServiceTicks), _replyBackground, waitTime: TimeSpan.FromTicks(_replyWaitTicks)),
            now);
        _parent.OnChildProgress(_replyProgress);
        _parent.OnStepDone(_reply);
    }

    private void Timeout()
    {
        if (_done)
        {
            return;
        }

        MarkDone();
        ReleaseConnection();
        if (_sent)
        {
            var now = _simulation.Now;
            _client?.OnFeedback(_target!.Index, new ReplicaFeedback(TimeSpan.FromTicks(now - _sentAt), 0, TimeSpan.Zero, failed: true), now);
        }

        _parent.OnStepDone(Outcome.Failed(Outcome.Timeout));
    }

    /// <summary>
    /// Ends the call for the caller. The timeout's clock event stays queued (and still runs, as a no-op) but lets go of
    /// the frame: an RPC timeout is seconds of virtual time, and a frame kept that long by its timeout outlived the call
    /// by thousands of events and went through the garbage collector's older generations.
    /// </summary>
    private void MarkDone()
    {
        _done = true;
        if (_timeout is { } handle)
        {
            handle.Frame = null;
            _timeout = null;
        }
    }

    private void ReleaseConnection()
    {
        if (_connection.IsAcquired)
        {
            _caller.Instance.Release(_caller.Instance.Service.ConnectionPool, _connection, _connectionAt);
            _connection = default;
        }
    }

    /// <summary>What a call's timeout event holds: the frame until the call ends, then nothing.</summary>
    private sealed class TimeoutHandle(RpcFrame frame)
    {
        public RpcFrame? Frame { get; set; } = frame;
    }
}
