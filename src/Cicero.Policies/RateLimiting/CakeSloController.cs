// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// Cake's second-level, SLO-compliance scheduler (Cake §5.3.1, Algorithm 1): every interval it compares each
/// latency-sensitive workflow's measured latency percentile with its SLO and moves proportional share (or, when
/// shares are exhausted, a reservation) between it and the batch workflows of a <see cref="CakeShareScheduler"/>.
/// </summary>
/// <remarks>
/// <para>
/// Normalized performance is SLO ÷ measured percentile (2.0 means twice as fast as required). Below
/// <see cref="CakeSloOptions.LowerBound"/> the workflow gains share, above <see cref="CakeSloOptions.UpperBound"/> it
/// gives share back; each change follows Cake's linear model (target = share ÷ performance) and is bounded by
/// <see cref="CakeSloOptions.MaxStepFraction"/> of the current share. Shares here are fractions of 1: the
/// latency-sensitive workflows hold theirs and the batch workflows split the rest equally.
/// </para>
/// <para>
/// It is an <see cref="IRateLimitPolicy"/> so it runs on the rate adaptation loop; it imposes no rate limit itself.
/// <see cref="RecordLatency"/> is thread-safe; the rest runs on the control thread.
/// </para>
/// </remarks>
public sealed class CakeSloController : IRateLimitPolicy
{
    private readonly CakeSloOptions _options;
    private readonly CakeShareScheduler _scheduler;
    private readonly Dictionary<int, SloState> _slos = [];
    private readonly Lock _samplesLock = new();
    private double _secondsSinceAdjustment;

    /// <summary>Creates the controller.</summary>
    /// <param name="options">SLOs and the paper's bounds.</param>
    /// <param name="scheduler">The first-level scheduler whose shares and reservations it drives.</param>
    public CakeSloController(CakeSloOptions options, CakeShareScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(scheduler);
        options.Validate();
        _options = options;
        _scheduler = scheduler;
        foreach (var (workflow, slo) in options.Slos)
        {
            var slot = scheduler.Registry.Resolve(new WorkflowId(workflow));
            _slos[slot.Index] = new SloState(slot, slo, options.MaxSamplesPerInterval) { Share = options.InitialShare };
        }

        ApplyShares();
    }

    /// <summary>Gets the number of adjustments made.</summary>
    public int Adjustments { get; private set; }

    /// <summary>Creates a factory under the name <see cref="RateLimitPolicies.CakeSlo"/> for processes using <paramref name="scheduler"/>.</summary>
    /// <param name="options">SLOs and bounds.</param>
    /// <param name="scheduler">The Cake first-level scheduler to drive.</param>
    /// <returns>The factory.</returns>
    public static RateLimitPolicyFactory CreateFactory(CakeSloOptions options, CakeShareScheduler scheduler)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        return new Factory(options, scheduler);
    }

    /// <summary>Gets a latency-sensitive workflow's current share (a fraction of 1).</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The share, or <see langword="null"/> for a workflow without an SLO.</returns>
    public double? GetShare(WorkflowId workflow) =>
        _scheduler.Registry.TryGet(workflow, out var slot) && _slos.TryGetValue(slot.Index, out var state) ? state.Share : null;

    /// <summary>Records a completed request's latency; only workflows with an SLO are kept.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="latency">The request's latency.</param>
    public void RecordLatency(WorkflowSlot workflow, TimeSpan latency)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        if (_slos.TryGetValue(workflow.Index, out var state))
        {
            lock (_samplesLock)
            {
                state.Add(latency.TotalSeconds);
            }
        }
    }

    /// <inheritdoc />
    void IRateLimitPolicy.ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        localRates.Fill(double.PositiveInfinity);
        _secondsSinceAdjustment += inputs.IntervalSeconds;
        // A tolerance, so ten 0.1 s steps make one second despite floating-point sums.
        if (_secondsSinceAdjustment >= _options.Interval.TotalSeconds - 1e-9)
        {
            _secondsSinceAdjustment = 0;
            Adjust();
        }
    }

    /// <summary>Runs Algorithm 1 for every latency-sensitive workflow over the samples since the last call.</summary>
    public void Adjust()
    {
        foreach (var state in _slos.Values)
        {
            double measured;
            lock (_samplesLock)
            {
                measured = state.TakePercentile(_options.Percentile);
            }

            if (double.IsNaN(measured))
            {
                continue;
            }

            var performance = measured <= 0 ? double.PositiveInfinity : state.Slo.TotalSeconds / measured;
            AdjustOne(state, performance);
        }

        ApplyShares();
        Adjustments++;
    }

    private void AdjustOne(SloState state, double performance)
    {
        var share = state.Share;
        if (performance < _options.LowerBound)
        {
            var reservation = _scheduler.GetReservation(state.Slot);
            var pool = SharedPool();
            if (share > _options.ReserveAboveShare && _scheduler.TrySetReservation(state.Slot, reservation + 1))
            {
                // A reserved permit replaces share: give 1 / (shared pool size before reserving) of share to batch.
                state.Share = Math.Max(0.01, share - (1.0 / pool));
            }
            else
            {
                state.Share = Math.Min(1, share + LinearStep(share, performance));
            }
        }
        else if (performance > _options.UpperBound)
        {
            var reservation = _scheduler.GetReservation(state.Slot);
            if (share < _options.ReleaseBelowShare && reservation > 0 && _scheduler.TrySetReservation(state.Slot, reservation - 1))
            {
                // The permit returns to the shared pool: take 1 / (shared pool size after releasing) of share.
                state.Share = Math.Min(1, share + (1.0 / SharedPool()));
            }
            else
            {
                state.Share = Math.Max(1e-6, share - LinearStep(share, performance));
            }
        }
    }

    /// <summary>Cake's LinearModel(): aim at performance 1.0, moving at most MaxStepFraction of the current share.</summary>
    private double LinearStep(double share, double performance)
    {
        var target = double.IsPositiveInfinity(performance) ? 0 : Math.Min(share / performance, 1);
        return Math.Min(Math.Abs(share - target), share * _options.MaxStepFraction);
    }

    private int SharedPool()
    {
        var reserved = 0;
        foreach (var state in _slos.Values)
        {
            reserved += _scheduler.GetReservation(state.Slot);
        }

        return Math.Max(1, _scheduler.Capacity - reserved);
    }

    private void ApplyShares()
    {
        var sensitive = 0.0;
        foreach (var state in _slos.Values)
        {
            _scheduler.SetShare(state.Slot, state.Share);
            sensitive += state.Share;
        }

        // Batch workflows split what the latency-sensitive ones leave.
        var batchCount = Math.Max(1, _scheduler.Registry.Count - _slos.Count);
        var batchShare = Math.Max(1e-6, 1 - sensitive) / batchCount;
        for (var i = 0; i < _scheduler.Registry.Count; i++)
        {
            if (!_slos.ContainsKey(i))
            {
                _scheduler.SetShare(_scheduler.Registry[i], batchShare);
            }
        }
    }

    private sealed class SloState(WorkflowSlot slot, TimeSpan slo, int capacity)
    {
        private readonly double[] _samples = new double[capacity];
        private int _count;

        public WorkflowSlot Slot { get; } = slot;

        public TimeSpan Slo { get; } = slo;

        public double Share { get; set; }

        public void Add(double seconds)
        {
            if (_count < _samples.Length)
            {
                _samples[_count++] = seconds;
            }
        }

        public double TakePercentile(double percentile)
        {
            if (_count == 0)
            {
                return double.NaN;
            }

            var samples = _samples.AsSpan(0, _count);
            samples.Sort();
            var rank = (int)Math.Ceiling(percentile * _count) - 1;
            var value = samples[Math.Clamp(rank, 0, _count - 1)];
            _count = 0;
            return value;
        }
    }

    private sealed class Factory(CakeSloOptions options, CakeShareScheduler scheduler) : RateLimitPolicyFactory
    {
        public override string Name => RateLimitPolicies.CakeSlo;

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => new CakeSloController(options, scheduler);
    }
}
