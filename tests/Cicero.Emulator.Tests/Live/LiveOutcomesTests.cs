// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Live;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Grpc;
using Grpc.Core;

namespace Cicero.Emulator.Tests.Live;

/// <summary>How the live runner books a call's status: Cicero's drops by the <c>cicero-drop-reason</c> trailer, whatever the status code.</summary>
public sealed class LiveOutcomesTests
{
    [Theory]
    [InlineData(StatusCode.ResourceExhausted, "rate_limited", "rate-limited")]
    [InlineData(StatusCode.ResourceExhausted, "queue_full", "queue-full")]
    [InlineData(StatusCode.ResourceExhausted, "downstream_dropped", "downstream-dropped")]
    [InlineData(StatusCode.DeadlineExceeded, "deadline_infeasible", "deadline-infeasible")]
    [InlineData(StatusCode.DeadlineExceeded, "deadline_expired", "deadline-expired")]
    [InlineData(StatusCode.ResourceExhausted, "a_reason_from_the_future", "policy")]
    public void Drop_WithCiceroReason_IsADropWithThatReason(StatusCode code, string wire, string expected)
    {
        var ex = new RpcException(new Status(code, "dropped"), new Metadata { { CiceroMetadataKeys.DropReason, wire } });

        var outcome = LiveOutcomes.Classify(ex);

        Assert.Equal(OutcomeKind.Dropped, outcome.Kind);
        Assert.Equal(expected, outcome.Reason);
    }

    [Theory]
    [InlineData(StatusCode.DeadlineExceeded, "Deadline Exceeded", false, "timeout")]
    [InlineData(StatusCode.Unavailable, "Error connecting to subchannel.", false, "unavailable")]
    [InlineData(StatusCode.Unavailable, "No replica can take the call: NoReplicas", false, "no-replica")]
    [InlineData(StatusCode.Internal, "Error reading next message.", false, "internal")]
    [InlineData(StatusCode.ResourceExhausted, "a limit without Cicero's trailer", true, "policy")]
    public void Status_WithoutCiceroReason_IsClassifiedByCode(StatusCode code, string detail, bool dropped, string expected)
    {
        var outcome = LiveOutcomes.Classify(new RpcException(new Status(code, detail)));

        Assert.Equal(dropped ? OutcomeKind.Dropped : OutcomeKind.Failed, outcome.Kind);
        Assert.Equal(expected, outcome.Reason);
    }
}
