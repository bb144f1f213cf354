// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>Round robin over the servers; with one server, the same as pick-first.</summary>
internal sealed class RoundRobinLoadBalancer : LoadBalancer
{
    private Uri[] _addresses;
    private int _next = -1;

    public RoundRobinLoadBalancer(IReadOnlyList<Uri> addresses) => _addresses = [.. addresses];

    public override ValueTask<LoadBalancerPick> PickAsync(CancellationToken cancellationToken)
    {
        var addresses = Volatile.Read(ref _addresses);
        if (addresses.Length == 0)
        {
            throw new RpcException(new RpcStatus(StatusCode.Unavailable, "The channel has no server addresses."));
        }

        var index = (int)((uint)Interlocked.Increment(ref _next) % (uint)addresses.Length);
        return new ValueTask<LoadBalancerPick>(new LoadBalancerPick(addresses[index]));
    }

    public override void Complete(in LoadBalancerPick pick, in CallCompletion completion)
    {
    }

    public override void UpdateAddresses(IReadOnlyList<Uri> addresses) => Volatile.Write(ref _addresses, [.. addresses]);
}
