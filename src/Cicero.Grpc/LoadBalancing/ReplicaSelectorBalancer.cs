// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;
using Grpc.Core;
using Grpc.Net.Client.Balancer;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// A grpc-dotnet balancer over Core's <see cref="ReplicaGroup"/>. grpc-dotnet owns the subchannels (connecting,
/// reconnecting with back-off, address updates from the resolver); the group holds one replica per ready subchannel,
/// ranks them with the selector and learns from every call's feedback.
/// </summary>
internal sealed class ReplicaSelectorBalancer : SubchannelsLoadBalancer
{
    private readonly Lock _lock = new();
    private readonly ITimer _retryTimer;
    private ReplicaSelectorPicker? _picker;
    private int _queued;
    private bool _timerArmed;

    public ReplicaSelectorBalancer(IChannelControlHelper controller, ILoggerFactory loggerFactory, IReplicaSelector selector, ReplicaGroupOptions? options, TimeProvider timeProvider)
        : base(controller, loggerFactory)
    {
        TimeProvider = timeProvider;

        // The timers (the group's and ours) must not keep the creating call's execution context: its ambient request
        // and its call slot would live as long as the channel, and every timer callback would run inside them.
        var flow = ExecutionContext.IsFlowSuppressed() ? default(AsyncFlowControl?) : ExecutionContext.SuppressFlow();
        try
        {
            Group = new ReplicaGroup(selector, options, timeProvider);
            _retryTimer = timeProvider.CreateTimer(static s => ((ReplicaSelectorBalancer)s!).Republish(), this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        }
        finally
        {
            flow?.Undo();
        }
    }

    public ReplicaGroup Group { get; }

    public TimeProvider TimeProvider { get; }

    /// <summary>A pick was queued: a new picker must follow when a replica may be free again.</summary>
    public void OnQueued(TimeSpan? retryAfter)
    {
        lock (_lock)
        {
            _queued++;
            if (retryAfter is { } delay && !_timerArmed)
            {
                _timerArmed = true;
                _retryTimer.Change(delay, Timeout.InfiniteTimeSpan);
            }
        }
    }

    /// <summary>A call finished: feed the selector and, if picks are waiting, let them try again.</summary>
    public void OnFinished(ReplicaState replica, in ReplicaFeedback feedback)
    {
        Group.Complete(replica, feedback);
        if (Volatile.Read(ref _queued) == 0)
        {
            return;
        }

        // Waiting picks are re-run only when one of them can succeed: re-running all of them on every response while
        // the rate limiters still hold back costs many picks per call. A rate the selector can time is left to the timer.
        switch (Group.TimeUntilAvailable())
        {
            case { } wait when wait > TimeSpan.Zero:
                OnQueued(wait);
                break;
            default:
                Republish();
                break;
        }
    }

    protected override SubchannelPicker CreatePicker(IReadOnlyList<Subchannel> readySubchannels)
    {
        var map = new Dictionary<string, Subchannel>(readySubchannels.Count, StringComparer.Ordinal);
        foreach (var subchannel in readySubchannels)
        {
            map[IdOf(subchannel)] = subchannel;
        }

        Group.SetReplicas(map.Keys);
        var picker = new ReplicaSelectorPicker(this, map);
        lock (_lock)
        {
            _picker = picker;
            _queued = 0;
        }

        return picker;
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            _retryTimer.Dispose();
            Group.Dispose();
        }

        base.Dispose(disposing);
    }

    /// <summary>The replica id of a subchannel: its address, <c>host:port</c>.</summary>
    internal static string IdOf(Subchannel subchannel)
    {
        var endpoint = subchannel.CurrentAddress?.EndPoint;
        return endpoint is null ? subchannel.ToString() : $"{endpoint.Host}:{endpoint.Port}";
    }

    /// <summary>Publishes a fresh picker over the same subchannels, so that grpc-dotnet re-runs its queued picks.</summary>
    private void Republish()
    {
        ReplicaSelectorPicker next;
        lock (_lock)
        {
            _timerArmed = false;
            if (_picker is null || _queued == 0 || State != ConnectivityState.Ready)
            {
                return;
            }

            _queued = 0;
            next = new ReplicaSelectorPicker(this, _picker.Subchannels);
            _picker = next;
        }

        Controller.UpdateState(new BalancerState(ConnectivityState.Ready, next));
    }
}
