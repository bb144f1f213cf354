// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// The back-off of replicas that refuse calls, in timestamps: it starts at the minimum and doubles up to the maximum
/// while a replica keeps refusing, and a response that is not a failure resets it.
/// </summary>
internal sealed class ReplicaBackoff(long minimum, long maximum)
{
    private long[]? _backoff;

    /// <summary>The replica refused a call: its next back-off, doubled from the last.</summary>
    public long Next(int replica, int replicaCount)
    {
        _backoff ??= new long[replicaCount];
        return _backoff[replica] = Math.Clamp(_backoff[replica] * 2, minimum, maximum);
    }

    /// <summary>The replica is alive: its next refusal starts the back-off from the bottom again.</summary>
    public void Reset(int replica)
    {
        if (_backoff is not null)
        {
            _backoff[replica] = 0;
        }
    }

    /// <summary>Forgets every back-off (the replicas changed).</summary>
    public void Clear() => _backoff = null;
}
