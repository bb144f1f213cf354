// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// Chooses a server for each call of a channel and learns from how calls end. A pick may wait (e.g. C3's backlog when
/// every server is over its rate); every pick is completed exactly once.
/// </summary>
public abstract class LoadBalancer : IDisposable
{
    /// <summary>Chooses the server for a call.</summary>
    /// <param name="cancellationToken">The call's cancellation.</param>
    /// <returns>The pick.</returns>
    /// <exception cref="Protocol.RpcException">No server can take the call (<see cref="Protocol.StatusCode.Unavailable"/>).</exception>
    public abstract ValueTask<LoadBalancerPick> PickAsync(CancellationToken cancellationToken);

    /// <summary>Reports how a picked call ended.</summary>
    /// <param name="pick">The pick.</param>
    /// <param name="completion">The outcome.</param>
    public abstract void Complete(in LoadBalancerPick pick, in CallCompletion completion);

    /// <summary>Replaces the set of servers; servers that stay keep what was learned about them.</summary>
    /// <param name="addresses">The servers' base addresses.</param>
    public abstract void UpdateAddresses(IReadOnlyList<Uri> addresses);

    /// <inheritdoc />
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }

    /// <summary>Frees the balancer's resources.</summary>
    /// <param name="disposing">Whether called from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposing)
    {
    }
}
