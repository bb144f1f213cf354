// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class ReplicaSelectorNamesTests
{
    [Fact]
    public void Names_AreTheConfiguredStrings()
    {
        string[] names =
        [
            ReplicaSelectorNames.C3, ReplicaSelectorNames.C3Paper, ReplicaSelectorNames.C3Background, ReplicaSelectorNames.RoundRobin, ReplicaSelectorNames.Random,
            ReplicaSelectorNames.LeastOutstanding, ReplicaSelectorNames.PowerOfTwoChoicesPeakEwma, ReplicaSelectorNames.DynamicSnitch,
            ReplicaSelectorNames.Oracle,
        ];

        Assert.Equal(
            ["c3", "c3-paper", "c3-background", "round-robin", "random", "least-outstanding", "p2c-peak-ewma", "dynamic-snitch", "oracle"],
            names);
    }

    [Fact]
    public void DelegateFactory_RejectsMissingNameOrFunction()
    {
        Assert.Throws<ArgumentException>(() => new DelegateReplicaSelectorFactory(" ", _ => new RoundRobinSelector()));
        Assert.Throws<ArgumentNullException>(() => new DelegateReplicaSelectorFactory("x", null!));
    }
}
