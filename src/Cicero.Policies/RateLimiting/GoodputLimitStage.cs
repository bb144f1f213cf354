// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary><see cref="BottleneckFairnessOptions.GoodputLimit"/>: an entry point admits about what gets through.</summary>
internal sealed class GoodputLimitStage : RateControlStage
{
    // The window is this many buckets of equal time, so a control interval that wobbles (the live loop steps once its
    // downstream queries return) or is skipped moves the window by time, not by steps.
    private const int GoodputBuckets = 10;

    // Per workflow slot: the window's outcomes (GoodputBuckets buckets each) and their sums, how long the failures have
    // persisted, and the limit (+∞ when none).
    private long[] _failedRing = [];
    private long[] _succeededRing = [];
    private long[] _failedSum = [];
    private long[] _succeededSum = [];
    private double[] _failingSeconds = [];
    private double[] _goodputLimit = [];

    // The policy's own clock (the sum of the intervals it was handed), the bucket it is in, and the seconds of intervals
    // each bucket holds and all of them hold: the rates divide by the time actually counted.
    private readonly double[] _bucketSeconds = new double[GoodputBuckets];
    private readonly GoodputLimitOptions _options;
    private readonly double _minimumRate;
    private readonly double _smallestRatio;
    private double _goodputElapsed;
    private long _goodputBucket = -1;

    /// <summary>Creates the stage from the limit's options and the policy's (validated) options.</summary>
    public GoodputLimitStage(GoodputLimitOptions options, BottleneckFairnessOptions policy)
    {
        _options = options;
        _minimumRate = policy.MinimumRate;
        _smallestRatio = 1 - policy.MaxDecrease;
    }

    /// <summary>
    /// Limits each workflow whose admitted requests have mostly failed for long enough to a multiple of its success
    /// rate; grows the limit back, and lifts it, once they no longer do.
    /// </summary>
    public override void Apply(RateControlInterval interval, Span<double> localRates)
    {
        var inputs = interval.Inputs;
        var options = _options;
        var workflows = inputs.Workflows;
        EnsureGoodputState(workflows.Length);
        var seconds = inputs.IntervalSeconds;
        if (!(seconds > 0))
        {
            // No time passed (two steps at one timestamp): nothing new to count, and the limits stand.
            ApplyGoodputLimits(localRates, workflows.Length);
            return;
        }

        var window = options.Window.TotalSeconds;
        var bucketSeconds = window / GoodputBuckets;
        _goodputElapsed += seconds;
        var at = AdvanceGoodputBuckets((long)Math.Floor((_goodputElapsed / bucketSeconds) + 1e-9), workflows.Length);
        _bucketSeconds[at] += seconds;
        var covered = 0.0;
        foreach (var held in _bucketSeconds)
        {
            covered += held;
        }

        for (var j = 0; j < workflows.Length; j++)
        {
            ref readonly var workflow = ref workflows[j];
            var slot = (j * GoodputBuckets) + at;
            _failedRing[slot] += workflow.Failed;
            _succeededRing[slot] += workflow.Succeeded;
            _failedSum[j] += workflow.Failed;
            _succeededSum[j] += workflow.Succeeded;

            var failed = _failedSum[j] / covered;
            var succeeded = _succeededSum[j] / covered;
            var mostlyFailing = failed > options.FailureFraction * (failed + succeeded);
            var evidence = _failedSum[j] >= options.MinimumFailures;

            // Only an unbroken run counts: the onset of an overload that the bottleneck's cut resolves fails for a second or
            // two, then thins out.
            _failingSeconds[j] = evidence && mostlyFailing ? _failingSeconds[j] + seconds : 0;

            var limit = _goodputLimit[j];
            var level = options.Headroom * succeeded;
            if (evidence && mostlyFailing && (double.IsFinite(limit) || _failingSeconds[j] >= options.Persistence.TotalSeconds))
            {
                level = Math.Max(_minimumRate, level);
                limit = double.IsPositiveInfinity(limit) ? level : Math.Max(limit * _smallestRatio, Math.Min(limit, level));
            }
            else if (double.IsFinite(limit))
            {
                limit = Math.Max(limit * (1 + (options.Growth * seconds)), level);
                if (limit > options.Headroom * Math.Max(_minimumRate, Math.Max(workflow.ArrivalRate, workflow.AdmittedRate)))
                {
                    // It no longer binds what the workflow offers: nothing to hold.
                    limit = double.PositiveInfinity;
                }
            }

            _goodputLimit[j] = limit;
        }

        ApplyGoodputLimits(localRates, workflows.Length);
    }

    private void ApplyGoodputLimits(Span<double> localRates, int workflows)
    {
        for (var j = 0; j < workflows; j++)
        {
            localRates[j] = Math.Min(localRates[j], _goodputLimit[j]);
        }
    }

    /// <summary>Moves to bucket <paramref name="target"/>, emptying the buckets it passes; returns its index in the ring.</summary>
    private int AdvanceGoodputBuckets(long target, int workflows)
    {
        if (target > _goodputBucket)
        {
            // Empty every bucket from the one after the current to the target (all of them after a long gap).
            var first = Math.Max(_goodputBucket + 1, target - GoodputBuckets + 1);
            for (var b = first; b <= target; b++)
            {
                var at = (int)(b % GoodputBuckets);
                _bucketSeconds[at] = 0;
                for (var j = 0; j < workflows; j++)
                {
                    var slot = (j * GoodputBuckets) + at;
                    _failedSum[j] -= _failedRing[slot];
                    _succeededSum[j] -= _succeededRing[slot];
                    _failedRing[slot] = 0;
                    _succeededRing[slot] = 0;
                }
            }

            _goodputBucket = target;
        }

        return (int)(_goodputBucket % GoodputBuckets);
    }

    private void EnsureGoodputState(int workflows)
    {
        if (_goodputLimit.Length >= workflows)
        {
            return;
        }

        // Slots are append-only, so a new workflow's state starts empty at the end.
        var from = _goodputLimit.Length;
        var size = Math.Max(workflows, Math.Max(16, from * 2));
        Array.Resize(ref _failedSum, size);
        Array.Resize(ref _succeededSum, size);
        Array.Resize(ref _failingSeconds, size);
        Array.Resize(ref _goodputLimit, size);
        _goodputLimit.AsSpan(from).Fill(double.PositiveInfinity);
        Array.Resize(ref _failedRing, size * GoodputBuckets);
        Array.Resize(ref _succeededRing, size * GoodputBuckets);
    }
}
