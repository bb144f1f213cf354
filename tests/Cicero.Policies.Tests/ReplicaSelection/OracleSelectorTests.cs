// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class OracleSelectorTests : ReplicaSelectorConformanceTests
{
    protected override string ExpectedName => "oracle";

    [Fact]
    public void Choose_PicksTheLeastExpectedWait()
    {
        var oracle = new OracleSelector();
        var replicas = Replicas(3);
        oracle.SetTruth(replicas[0], queueLength: 5, serviceTimeSeconds: 0.004); // (5 + 0 + 1) × 4 ms = 24 ms
        oracle.SetTruth(replicas[1], queueLength: 0, serviceTimeSeconds: 0.012); // (0 + 0 + 1) × 12 ms = 12 ms
        oracle.SetTruth(replicas[2], queueLength: 2, serviceTimeSeconds: 0.002); // (2 + 0 + 1) × 2 ms = 6 ms

        Assert.Equal(ReplicaChoice.Replica(2), oracle.Choose(replicas, 0));

        // This client's outstanding requests count: (2 + 4 + 1) × 2 ms = 14 ms > 12 ms.
        replicas[2].Outstanding = 4;
        Assert.Equal(ReplicaChoice.Replica(1), oracle.Choose(replicas, 0));

        // (2 + 2 + 1) × 2 ms = 10 ms < 12 ms.
        replicas[2].Outstanding = 2;
        Assert.Equal(ReplicaChoice.Replica(2), oracle.Choose(replicas, 0));

        // (2 + 5 + 1) × 2 ms = 16 ms > 12 ms.
        replicas[2].Outstanding = 5;
        Assert.Equal(ReplicaChoice.Replica(1), oracle.Choose(replicas, 0));
    }

    [Fact]
    public void Choose_TruthChanges_FollowsIt()
    {
        var oracle = new OracleSelector();
        var replicas = Replicas(2);
        oracle.SetTruth(replicas[0], 1, 0.004);
        oracle.SetTruth(replicas[1], 1, 0.012);
        Assert.Equal(ReplicaChoice.Replica(0), oracle.Choose(replicas, 0));

        // Replica 0's mean service time switches from 4 ms to 12 ms and replica 1's from 12 ms to 4/3 ms.
        oracle.SetTruth(replicas[0], 1, 0.012);
        oracle.SetTruth(replicas[1], 1, 0.004 / 3);
        Assert.Equal(ReplicaChoice.Replica(1), oracle.Choose(replicas, 1));
    }

    [Fact]
    public void Choose_ReplicaWithoutTruth_IsTried()
    {
        var oracle = new OracleSelector();
        var replicas = Replicas(2);
        oracle.SetTruth(replicas[0], 0, 0.001);

        Assert.Equal(ReplicaChoice.Replica(1), oracle.Choose(replicas, 0));
    }

    [Fact]
    public void Choose_EqualTruths_TakeTurns()
    {
        var oracle = new OracleSelector();
        var replicas = Replicas(3);
        Array.ForEach(replicas, r => oracle.SetTruth(r, 2, 0.004));

        Assert.Equal([0, 1, 2, 0], new[] { 0, 1, 2, 3 }.Select(i => oracle.Choose(replicas, i).Index));
    }

    [Fact]
    public void SetTruth_InvalidValues_Throw()
    {
        var oracle = new OracleSelector();
        var replica = new ReplicaState("r");

        Assert.Equal("queueLength", Assert.Throws<ArgumentOutOfRangeException>(() => oracle.SetTruth(replica, -1, 0.001)).ParamName);
        Assert.Equal("serviceTimeSeconds", Assert.Throws<ArgumentOutOfRangeException>(() => oracle.SetTruth(replica, 0, double.NaN)).ParamName);
        Assert.Equal("serviceTimeSeconds", Assert.Throws<ArgumentOutOfRangeException>(() => oracle.SetTruth(replica, 0, double.PositiveInfinity)).ParamName);
        Assert.Throws<ArgumentNullException>(() => oracle.SetTruth(null!, 0, 0));
    }

    [Fact]
    public void SetTruth_OverForeignState_ReplacesIt()
    {
        var oracle = new OracleSelector();
        var replicas = Replicas(2);
        replicas[0].SelectorState = "someone else's";
        oracle.SetTruth(replicas[0], 0, 0.001);
        oracle.SetTruth(replicas[1], 0, 0.002);

        Assert.Equal(ReplicaChoice.Replica(0), oracle.Choose(replicas, 0));
    }

    protected override IReplicaSelector CreateSelector() => new OracleSelector();

    protected override ReplicaSelectorFactory CreateFactory() => OracleSelector.CreateFactory();
}
