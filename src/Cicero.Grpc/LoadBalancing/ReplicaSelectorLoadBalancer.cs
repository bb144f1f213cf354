// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Grpc.Context;
using Cicero.Grpc.Protocol;
using Cicero.ReplicaSelection;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// A channel balancer over Core's <see cref="ReplicaGroup"/>: the selector ranks replicas, the group holds the backlog
/// when all are over their rate, and each call's trailers feed the selector for the replica that served it. A replica
/// that cannot be reached is skipped for a back-off period (doubling up to <see cref="MaxBackoff"/>), then tried again.
/// </summary>
internal sealed class ReplicaSelectorLoadBalancer : LoadBalancer
{
    internal static readonly TimeSpan InitialBackoff = TimeSpan.FromMilliseconds(250);
    internal static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(5);

    private readonly ReplicaGroup _group;
    private readonly TimeProvider _timeProvider;
    private readonly ConcurrentDictionary<string, Uri> _addresses = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, Backoff> _backoffs = new(StringComparer.Ordinal);

    public ReplicaSelectorLoadBalancer(IReplicaSelector selector, ReplicaGroupOptions? options, LoadBalancerContext context)
    {
        _timeProvider = context.TimeProvider;
        _group = new ReplicaGroup(selector, options, context.TimeProvider);
        UpdateAddresses(context.Addresses);
    }

    public ReplicaGroup Group => _group;

    public override async ValueTask<LoadBalancerPick> PickAsync(CancellationToken cancellationToken)
    {
        var pick = await _group.PickAsync(cancellationToken).ConfigureAwait(false);
        if (!pick.Succeeded)
        {
            throw new RpcException(new RpcStatus(StatusCode.Unavailable, $"No replica can take the call: {pick.Failure}"));
        }

        return new LoadBalancerPick(_addresses[pick.Replica!.Id], pick.Replica);
    }

    public override void Complete(in LoadBalancerPick pick, in CallCompletion completion)
    {
        if (pick.State is not ReplicaState replica)
        {
            return;
        }

        var code = completion.Status.Code;
        var unreachable = code == StatusCode.Unavailable && completion.Trailers is null;
        var failed = unreachable || (code is StatusCode.Cancelled or StatusCode.DeadlineExceeded && completion.Trailers is null);
        Span<byte> feedbackBytes = stackalloc byte[TrailerCodec.MaxLength];
        ReplicaFeedback feedback;
        if (failed
            || completion.Trailers is not { } trailers
            || !trailers.TryCopyValueBytes(CiceroMetadataKeys.Result, feedbackBytes, out var length)
            || !TrailerCodec.TryDecodeFeedback(feedbackBytes[..length], completion.ResponseTime, failed: false, out feedback))
        {
            // A server without Cicero's trailer still tells its response time; an unreachable one tells nothing.
            feedback = new ReplicaFeedback(completion.ResponseTime, 0, completion.ResponseTime, Failed: failed);
        }

        _group.Complete(replica, feedback);
        if (unreachable)
        {
            MarkDown(replica.Id);
        }
        else if (_backoffs.TryRemove(replica.Id, out var backoff))
        {
            backoff.Dispose();
        }
    }

    public override void UpdateAddresses(IReadOnlyList<Uri> addresses)
    {
        var ids = new List<string>(addresses.Count);
        foreach (var address in addresses)
        {
            var id = InstanceIds.FromAddress(address);
            _addresses[id] = address;
            ids.Add(id);
        }

        _group.SetReplicas(ids);
    }

    protected override void Dispose(bool disposing)
    {
        if (disposing)
        {
            foreach (var backoff in _backoffs.Values)
            {
                backoff.Dispose();
            }

            _group.Dispose();
        }

        base.Dispose(disposing);
    }

    private void MarkDown(string id)
    {
        var backoff = _backoffs.GetOrAdd(id, static (key, self) => new Backoff(self, key), this);
        backoff.Start();
    }

    /// <summary>One unreachable replica's back-off: down now, up again after a delay that doubles per failure.</summary>
    private sealed class Backoff(ReplicaSelectorLoadBalancer owner, string id) : IDisposable
    {
        private readonly Lock _lock = new();
        private ITimer? _timer;
        private TimeSpan _delay;

        public void Start()
        {
            lock (_lock)
            {
                if (_timer is not null)
                {
                    return;
                }

                _delay = _delay == TimeSpan.Zero ? InitialBackoff : TimeSpan.FromTicks(Math.Min(_delay.Ticks * 2, MaxBackoff.Ticks));
                owner._group.SetDown(id, true);
                _timer = owner._timeProvider.CreateTimer(static s => ((Backoff)s!).Expire(), this, _delay, Timeout.InfiniteTimeSpan);
            }
        }

        public void Dispose()
        {
            lock (_lock)
            {
                _timer?.Dispose();
                _timer = null;
            }
        }

        private void Expire()
        {
            lock (_lock)
            {
                _timer?.Dispose();
                _timer = null;
            }

            owner._group.SetDown(id, false);
        }
    }
}
