// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;
using Cicero.ReplicaSelection;

namespace Cicero.Policies.Tests.ReplicaSelection;

/// <summary>
/// The balancer's per-call path through a replica group, a C3 pick and its response, allocates nothing, with or without
/// a coordinator (the grpc-dotnet balancer always has one).
/// </summary>
public sealed class ReplicaGroupAllocationTests
{
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void PickAndComplete_SteadyState_AllocatesNothing(bool coordinated)
    {
        var coordinator = coordinated ? new ReplicaGroupCoordinator() : null;

        // Rate limits out of reach: every pick is a real pick, none waits.
        var selector = new C3ReplicaSelector(new C3Options { Rate = { InitialRate = 1e9, MaxTokens = 1e9 } }, TimeProvider.System.TimestampFrequency);
        using var group = new ReplicaGroup(selector, coordinator: coordinator);
        group.SetReplicas(["a", "b", "c"]);
        var feedback = new ReplicaFeedback(TimeSpan.FromMilliseconds(1), 1, TimeSpan.FromMilliseconds(1));
        for (var i = 0; i < 2_000; i++)
        {
            Assert.True(group.TryPick(out var warm, out _));
            group.Complete(warm.Replica!, feedback);
        }

        const int Calls = 10_000;
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < Calls; i++)
        {
            group.TryPick(out var pick, out _);
            group.Complete(pick.Replica!, feedback);
        }

        var perCall = (GC.GetAllocatedBytesForCurrentThread() - before) / (double)Calls;

        // Under one byte per call on average: a rare one-off (a tiered-JIT or timer allocation) is tolerated, an object
        // per call (at least 24 B) is not.
        Assert.True(perCall < 1, $"{perCall:F2} B per pick and response");
    }
}
