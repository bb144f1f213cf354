// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary><see cref="BottleneckFairnessOptions.GoodputLimit"/>: an entry point admits about what gets through.</summary>
public sealed partial class BottleneckFairnessPolicy
{
    // Per workflow slot: the window's outcomes (a ring of per-interval counts, _goodputSlots per workflow) and their sums,
    // how long the failures have persisted, and the limit (+∞ when none).
    private long[] _failedRing = [];
    private long[] _succeededRing = [];
    private long[] _failedSum = [];
    private long[] _succeededSum = [];
    private double[] _failingSeconds = [];
    private double[] _goodputLimit = [];
    private int _goodputSlots;
    private long _goodputSteps;

    /// <summary>
    /// Limits each workflow whose admitted requests have mostly failed for long enough to a multiple of its success
    /// rate; grows the limit back, and lifts it, once they no longer do.
    /// </summary>
    private void LimitToGoodput(LocalRateInputs inputs, Span<double> localRates, GoodputLimitOptions options)
    {
        var workflows = inputs.Workflows;
        var seconds = inputs.IntervalSeconds;
        EnsureGoodputState(workflows.Length, Math.Max(1, (int)Math.Round(options.Window.TotalSeconds / seconds)));
        var at = (int)(_goodputSteps++ % _goodputSlots);
        var windowSeconds = seconds * _goodputSlots;
        for (var j = 0; j < workflows.Length; j++)
        {
            ref readonly var workflow = ref workflows[j];
            var slot = (j * _goodputSlots) + at;
            _failedSum[j] += workflow.Failed - _failedRing[slot];
            _succeededSum[j] += workflow.Succeeded - _succeededRing[slot];
            _failedRing[slot] = workflow.Failed;
            _succeededRing[slot] = workflow.Succeeded;

            var failed = _failedSum[j] / windowSeconds;
            var succeeded = _succeededSum[j] / windowSeconds;
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
            localRates[j] = Math.Min(localRates[j], limit);
        }
    }

    private void EnsureGoodputState(int workflows, int slots)
    {
        if (slots != _goodputSlots)
        {
            // A new window length (the interval changed): count afresh, keeping the limits.
            _goodputSlots = slots;
            _failedRing = new long[Math.Max(workflows, 16) * slots];
            _succeededRing = new long[_failedRing.Length];
            Array.Clear(_failedSum);
            Array.Clear(_succeededSum);
        }

        if (_goodputLimit.Length < workflows)
        {
            var from = _goodputLimit.Length;
            var size = Math.Max(workflows, 16);
            Array.Resize(ref _failedSum, size);
            Array.Resize(ref _succeededSum, size);
            Array.Resize(ref _failingSeconds, size);
            Array.Resize(ref _goodputLimit, size);
            _goodputLimit.AsSpan(from).Fill(double.PositiveInfinity);
        }

        if (_failedRing.Length < workflows * slots)
        {
            Array.Resize(ref _failedRing, Math.Max(workflows, 16) * slots);
            Array.Resize(ref _succeededRing, _failedRing.Length);
        }
    }
}
