// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// One caller instance's replica selection towards a blocks-routed service: Core's
/// <see cref="ReplicaClientEngine{TRequest}"/> (the one the grpc-dotnet balancer runs) over one
/// <see cref="ReplicaState"/> per callee instance and one group per block placement, hosted on the simulation's
/// virtual clock. This class only adapts: calls are the engine's requests, and its timers are clock events.
/// </summary>
internal sealed class ReplicaClient : IReplicaClientHost<RpcFrame>
{
    private static readonly Action<object?> OnRetry = static state =>
    {
        var (client, group) = ((ReplicaClient, int))state!;
        client._engine.OnRetryTimer(group, client._simulation.Now);
    };

    private static readonly Action<object?> OnBackoffEnd = static state =>
    {
        var (client, target) = ((ReplicaClient, int))state!;
        client._engine.OnBackoffEnd(target, client._simulation.Now);
    };

    private readonly TopologySimulation _simulation;
    private readonly ReplicaClientEngine<RpcFrame> _engine;

    // The clock events' states, (this, i) for group i and for instance i, boxed once: scheduling allocates nothing.
    private readonly object[] _states;

    // local: the caller's own index among the callee's instances when it serves its copies itself; else -1.
    public ReplicaClient(TopologySimulation simulation, IReplicaSelector selector, ServiceDef target, int replication, int local)
    {
        _simulation = simulation;
        _engine = new ReplicaClientEngine<RpcFrame>(selector, this, TimeSpan.TicksPerSecond);
        var views = new ReplicaState[target.Instances];
        for (var i = 0; i < views.Length; i++)
        {
            views[i] = new ReplicaState(target.Name + "-" + i.ToString(CultureInfo.InvariantCulture));
        }

        _engine.SetReplicas(views, ReplicaGroupLayouts.Windows(views.Length, replication));
        _states = new object[views.Length];
        for (var i = 0; i < views.Length; i++)
        {
            _states[i] = (this, i);
        }

        _engine.LocalReplicaId = local >= 0 ? views[local].Id : null;
    }

    /// <summary>Routes a call to the block group starting at <paramref name="groupStart"/>.</summary>
    public void Route(RpcFrame frame, int groupStart) => _engine.Route(frame, groupStart, _simulation.Now);

    public void OnSent(int target, long now) => _engine.OnSent(target, now);

    public void OnFeedback(int target, in ReplicaFeedback feedback, long now) => _engine.Complete(target, feedback, now);

    /// <summary>A call found the instance dead: a failure, and the instance is skipped for its back-off.</summary>
    public void OnUnavailable(int target, in ReplicaFeedback feedback, long now) => _engine.OnUnavailable(target, feedback, now);

    void IReplicaClientHost<RpcFrame>.Dispatch(RpcFrame request, int replica, bool isLocal)
    {
        if (isLocal)
        {
            request.ProceedLocally(replica);
        }
        else
        {
            request.Proceed(replica);
        }
    }

    void IReplicaClientHost<RpcFrame>.Fail(RpcFrame request, string reason) => request.FailNoReplica();

    void IReplicaClientHost<RpcFrame>.ScheduleRetry(int group, long due) => _simulation.Clock.ScheduleAt(due, OnRetry, _states[group]);

    void IReplicaClientHost<RpcFrame>.ScheduleBackoffEnd(int replica, long due) => _simulation.Clock.ScheduleAt(due, OnBackoffEnd, _states[replica]);
}
