// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Grpc.Core;

namespace Cicero.Grpc.Tests.Context;

public sealed class DropReasonNamesTests
{
    [Theory]
    [InlineData(DropReason.RateLimited, "rate_limited", StatusCode.ResourceExhausted)]
    [InlineData(DropReason.QueueFull, "queue_full", StatusCode.ResourceExhausted)]
    [InlineData(DropReason.DownstreamDropped, "downstream_dropped", StatusCode.ResourceExhausted)]
    [InlineData(DropReason.Policy, "policy", StatusCode.ResourceExhausted)]
    [InlineData(DropReason.DeadlineInfeasible, "deadline_infeasible", StatusCode.DeadlineExceeded)]
    [InlineData(DropReason.DeadlineExpired, "deadline_expired", StatusCode.DeadlineExceeded)]
    public void EveryReason_HasItsWireNameAndStatus_AndParsesBack(DropReason reason, string wire, StatusCode status)
    {
        Assert.Equal(wire, DropReasonNames.ToWire(reason));
        Assert.Equal(status, DropReasonNames.ToStatusCode(reason));
        Assert.True(DropReasonNames.TryParse(wire, out var parsed));
        Assert.Equal(reason, parsed);
    }

    [Fact]
    public void EveryReasonOfCore_IsInTheTable()
    {
        // A reason added to Core without a wire name would travel as something TryParse does not know.
        foreach (var reason in Enum.GetValues<DropReason>().Where(r => r != DropReason.None))
        {
            Assert.True(DropReasonNames.TryParse(DropReasonNames.ToWire(reason), out var parsed), reason.ToString());
            Assert.Equal(reason, parsed);
        }
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("RATE_LIMITED")]
    [InlineData("none")]
    [InlineData("rate_limited ")]
    public void UnknownNames_DoNotParse(string? name)
    {
        Assert.False(DropReasonNames.TryParse(name, out var reason));
        Assert.Equal(DropReason.None, reason);
    }

    [Theory]
    [InlineData("http://127.0.0.1:5001/", "http://127.0.0.1:5001")]
    [InlineData("http://127.0.0.1:5001/some/path?q=1", "http://127.0.0.1:5001")]
    [InlineData("https://Storage-1.example:443", "https://storage-1.example")]
    [InlineData("http://[::1]:80", "http://[::1]")]
    public void InstanceIds_FromAddress_IsSchemeHostAndPort(string address, string id)
    {
        Assert.Equal(id, InstanceIds.FromAddress(new Uri(address)));
    }
}
