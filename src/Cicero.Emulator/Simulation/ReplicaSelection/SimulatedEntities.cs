// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>A request a generator created: its client, its replica group and when it was created.</summary>
internal sealed class SimulatedRequest(SimulatedClient client, int groupStart, long created, bool lowRate)
{
    public bool LowRate { get; } = lowRate;

    public SimulatedClient Client { get; } = client;

    public int GroupStart { get; } = groupStart;

    public long Created { get; } = created;

    public bool WasBacklogged { get; set; }
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

/// <summary>A client: its selector, its view of every server (one <see cref="ReplicaState"/> each) and its per-group backlogs.</summary>
internal sealed class SimulatedClient
{
    public SimulatedClient(IReplicaSelector selector, int servers, int replicationFactor)
    {
        Selector = selector;
        Views = new ReplicaState[servers];
        LastResponse = new long[servers];
        Array.Fill(LastResponse, -1);
        for (var s = 0; s < servers; s++)
        {
            Views[s] = new ReplicaState("server-" + s.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        Groups = new ReplicaState[servers][];
        Backlogs = new GroupBacklog[servers];
        for (var g = 0; g < servers; g++)
        {
            var group = new ReplicaState[replicationFactor];
            for (var r = 0; r < replicationFactor; r++)
            {
                group[r] = Views[(g + r) % servers];
            }

            Groups[g] = group;
            Backlogs[g] = new GroupBacklog(this, g);
        }
    }

    public IReplicaSelector Selector { get; }

    /// <summary>Gets when a response last came back from each server (-1 before the first): how old this client's view is.</summary>
    public long[] LastResponse { get; }

    public ReplicaState[] Views { get; }

    public ReplicaState[][] Groups { get; }

    public GroupBacklog[] Backlogs { get; }
}

/// <summary>C3 Algorithm 1's backlog of one replica group at one client: FIFO, retried on responses and by a timer.</summary>
internal sealed class GroupBacklog(SimulatedClient client, int start)
{
    public SimulatedClient Client { get; } = client;

    public int Start { get; } = start;

    public Queue<SimulatedRequest> Waiting { get; } = new();

    public long TimerDue { get; set; } = long.MaxValue;
}
