// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Tests.Simulation.Topology;

/// <summary>The clients' RPC timeouts hold only requests still waiting, so memory follows the clients, not their resends.</summary>
public sealed class RequestTimeoutsTests
{
    [Fact]
    public void Run_ClosedLoopClientsRefusedAtOnce_KeepPendingEventsBoundedByTheClients()
    {
        // Under rate control most of these clients are refused at once and resend a millisecond later: hundreds of
        // thousands of requests a second, each of which used to keep a timer, and itself, for the 10 s RPC timeout.
        const int Clients = 2_000;
        var scenario = TestScenarios.Tiny(workloads: $$"""[{ "workflow": "W", "kind": "closed-loop", "clients": {{Clients}} }]""", duration: 3);
        var simulation = new TopologySimulation(scenario, scenario.Configurations![0]);
        var pending = -1;
        simulation.Clock.ScheduleAt(TimeSpan.FromSeconds(2.5).Ticks, _ => pending = simulation.Clock.PendingCount, null);

        var result = simulation.Run();

        var workflow = Assert.Single(result.Workflows);
        Assert.True(workflow.Dropped > 20 * Clients, $"{workflow.Dropped:N0} dropped of {workflow.Offered:N0}: the clients were not refused at once");
        Assert.InRange(pending, 1, 10 * Clients);
    }
}
