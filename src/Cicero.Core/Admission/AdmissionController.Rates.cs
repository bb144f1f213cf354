// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;
using Cicero.Workflows;

namespace Cicero.Admission;

public sealed partial class AdmissionController
{
    /// <summary>
    /// Gets the default of what an interior hop gets: <see cref="InteriorAdmission.LocalFairShare"/>
    /// (docs/decisions/0022). Cicero.Grpc's <c>InteriorCalls</c> starts from this value.
    /// </summary>
    public static InteriorAdmission DefaultInteriorAdmission => InteriorAdmission.LocalFairShare;

    /// <summary>Gets a workflow's admission rate σ (the rate of <see cref="GetProperties"/>).</summary>
    internal double GetRate(WorkflowId workflow) => GetProperties(workflow).Rate;

    /// <summary>Sets a workflow's admission rate σ, keeping its burst setting and queue bound.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="rate">Requests per second; +∞ for no limit.</param>
    public void SetRate(WorkflowId workflow, double rate) => SetRate(Registry.Resolve(workflow), rate);

    /// <summary>Sets a workflow's admission rate σ by its slot, keeping its burst setting and queue bound.</summary>
    internal void SetRate(WorkflowSlot workflow, double rate)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        double? burst;
        int queueLimit;
        lock (_lock)
        {
            var limiter = GetLimiter(workflow.Index, _timeProvider.GetTimestamp());
            burst = limiter.ExplicitBurst;
            queueLimit = limiter.QueueLimit;
        }

        Configure(workflow, new RateLimiterProperties(rate, burst, queueLimit));
    }

    /// <summary>Gets a workflow's limiter properties.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>Rate, burst and queue bound.</returns>
    public RateLimiterProperties GetProperties(WorkflowId workflow)
    {
        var slot = Registry.Resolve(workflow);
        lock (_lock)
        {
            var limiter = GetLimiter(slot.Index, _timeProvider.GetTimestamp());
            return new RateLimiterProperties(limiter.Bucket.Rate, limiter.Bucket.Burst, limiter.QueueLimit);
        }
    }

    /// <summary>Creates or reconfigures a workflow's limiter (Table 5.1's CreateRateLimiter and SetRateLimiterProperty).</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="properties">Rate, burst and queue bound.</param>
    public void Configure(WorkflowId workflow, RateLimiterProperties properties) => Configure(Registry.Resolve(workflow), properties);

    /// <summary>Gets the number of a workflow's requests waiting for a token.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The queue length.</returns>
    public int GetQueueLength(WorkflowId workflow)
    {
        if (!Registry.TryGet(workflow, out var slot))
        {
            return 0;
        }

        lock (_lock)
        {
            return _limiters[slot.Index]?.Queue.Count ?? 0;
        }
    }

    private void Configure(WorkflowSlot workflow, RateLimiterProperties properties)
    {
        properties.Validate();
        lock (_lock)
        {
            var now = _timeProvider.GetTimestamp();
            var limiter = GetLimiter(workflow.Index, now);
            limiter.ExplicitBurst = properties.Burst;
            limiter.QueueLimit = properties.QueueLimit;
            limiter.Bucket.Reconfigure(properties.Rate, BurstFor(properties.Rate, properties.Burst), now);
            _waiters.ArmTimerLocked(now);
        }

        if (CiceroInstruments.AdmissionRate.Enabled)
        {
            CiceroInstruments.AdmissionRate.Record(properties.Rate, new KeyValuePair<string, object?>(CiceroTelemetry.WorkflowTag, workflow.Id.Value));
        }

        // A higher rate may let waiters through before the timer would have.
        _waiters.ReleaseDue();
    }

    private WorkflowLimiter GetLimiter(int index, long now)
    {
        var limiter = _limiters[index];
        if (limiter is null)
        {
            var rate = _options.InitialRate;
            limiter = new WorkflowLimiter(new TokenBucket(rate, BurstFor(rate, null), now, _timestampFrequency), _options.QueueLimit)
            {
                // A new limiter counts as just admitted: no probe before a whole interval has passed.
                LastAdmittedAt = now,
                LastProbeAt = now,
            };
            _limiters[index] = limiter;
        }

        return limiter;
    }

    private double BurstFor(double rate, double? explicitBurst) =>
        explicitBurst ?? (double.IsPositiveInfinity(rate) ? 1 : Math.Max(1, rate * _options.BurstWindow.TotalSeconds));
}
