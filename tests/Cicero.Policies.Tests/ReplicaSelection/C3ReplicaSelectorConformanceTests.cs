// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

public class C3ReplicaSelectorConformanceTests : ReplicaSelectorConformanceTests
{
    protected override string ExpectedName => ReplicaSelectorNames.C3;

    protected override bool MayBacklog => true;

    // A bucket deep enough never to run dry in these checks: rate control and backpressure are tested in
    // CubicRateControllerTests and C3ReplicaSelectorTests; here C3 must meet the contract every selector meets.
    protected override IReplicaSelector CreateSelector()
    {
        var options = new C3Options();
        options.Rate.InitialRate = 1e6;
        options.Rate.MaxTokens = 1e6;
        return new C3ReplicaSelector(options, Frequency);
    }

    protected override ReplicaSelectorFactory CreateFactory() => C3ReplicaSelector.CreateFactory();
}
