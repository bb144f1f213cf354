// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>A request a generator created: its client, its replica group and when it was created.</summary>
internal sealed class SimulatedRequest(SimulatedClient client, int groupStart, long created, bool lowRate)
{
    public bool LowRate { get; } = lowRate;

    public SimulatedClient Client { get; } = client;

    public int GroupStart { get; } = groupStart;

    public long Created { get; } = created;
}

/// <summary>One copy of a request on the wire or at a server: the primary, or a read-repair copy.</summary>
internal sealed class SimulatedCopy(SimulatedRequest request, int server, long sentAt, bool primary)
{
    public SimulatedRequest Request { get; } = request;

    public int Server { get; } = server;

    public long SentAt { get; } = sentAt;

    public bool Primary { get; } = primary;

    public long ServiceTicks { get; set; }

    public int QueueAfter { get; set; }
}

/// <summary>
/// A client: its selector, its view of every server (one <see cref="ReplicaState"/> each) and Core's
/// <see cref="ReplicaClientEngine{TRequest}"/> over one group per starting server, whose backlogs (C3 Algorithm 1)
/// it hosts on the simulation's virtual clock.
/// </summary>
internal sealed class SimulatedClient : IReplicaClientHost<SimulatedRequest>
{
    private readonly ReplicaSimulation _simulation;
    private readonly RetryToken[] _retries;

    public SimulatedClient(ReplicaSimulation simulation, IReplicaSelector selector, int servers, int replicationFactor, long frequency)
    {
        _simulation = simulation;
        Selector = selector;
        Views = new ReplicaState[servers];
        LastResponse = new long[servers];
        Array.Fill(LastResponse, -1);
        for (var s = 0; s < servers; s++)
        {
            Views[s] = new ReplicaState("server-" + s.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        _retries = new RetryToken[servers];
        for (var g = 0; g < servers; g++)
        {
            _retries[g] = new RetryToken(this, g);
        }

        // The oracle is told each server's true queue and speed just before it chooses.
        var engineSelector = selector is OracleSelector oracle ? new OracleTruth(oracle, simulation, Views) : selector;
        Engine = new ReplicaClientEngine<SimulatedRequest>(engineSelector, this, frequency);
        Engine.SetReplicas(Views, ReplicaGroupLayouts.Windows(servers, replicationFactor));
    }

    public IReplicaSelector Selector { get; }

    public ReplicaClientEngine<SimulatedRequest> Engine { get; }

    /// <summary>Gets when a response last came back from each server (-1 before the first): how old this client's view is.</summary>
    public long[] LastResponse { get; }

    public ReplicaState[] Views { get; }

    void IReplicaClientHost<SimulatedRequest>.Dispatch(SimulatedRequest request, int replica, bool isLocal) => _simulation.Send(request, replica);

    void IReplicaClientHost<SimulatedRequest>.Fail(SimulatedRequest request, string reason) => _simulation.Fail();

    void IReplicaClientHost<SimulatedRequest>.ScheduleRetry(int group, long due) => _simulation.ScheduleRetry(_retries[group], due);

    void IReplicaClientHost<SimulatedRequest>.ScheduleBackoffEnd(int replica, long due) =>
        throw new InvalidOperationException("The C3 simulation's servers never refuse calls.");
}

/// <summary>A group's retry timer, as the state of its clock event.</summary>
internal sealed class RetryToken(SimulatedClient client, int group)
{
    public SimulatedClient Client { get; } = client;

    public int Group { get; } = group;
}

/// <summary>Feeds the oracle every server's true waiting queue and mean service time before each choice.</summary>
internal sealed class OracleTruth(OracleSelector oracle, ReplicaSimulation simulation, ReplicaState[] views) : IReplicaSelector
{
    public ReplicaChoice Choose(ReadOnlySpan<ReplicaState> replicas, long now)
    {
        foreach (var replica in replicas)
        {
            var server = Array.IndexOf(views, replica);
            oracle.SetTruth(replica, simulation.TrueQueue(server), simulation.TrueServiceSeconds(server));
        }

        return ((IReplicaSelector)oracle).Choose(replicas, now);
    }

    public void OnSent(ReplicaState replica, long now) => ((IReplicaSelector)oracle).OnSent(replica, now);

    public void OnFeedback(ReplicaState replica, in ReplicaFeedback feedback, long now) => ((IReplicaSelector)oracle).OnFeedback(replica, feedback, now);
}
