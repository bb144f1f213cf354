// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// Bottleneck fairness (dissertation Algorithm 4, section 5.2.5): find the local resource k′ with the least spare
/// capacity φ = (c − Σl) / c. If it is not overloaded (φ ≥ 0), ramp every leaf workflow up by β(1 + φ / n), where n is
/// the number of workflows with load on k′, and let every other workflow inherit its downstream rate σ′. If it is
/// overloaded, compute max-min fair shares of c over the loads on k′ and scale each contending workflow towards its share.
/// </summary>
/// <remarks>
/// <para>
/// A pipeline, run once per interval: an overload detector (<see cref="DemandOverloadDetector"/>) finds the bottleneck
/// k′, the allocator (<see cref="FairShareAllocator"/>) ramps or cuts each workflow towards its max-min share of it, and
/// the stages that are on (<see cref="BottleneckFairnessOptions.HeldRateRegrowth"/>,
/// <see cref="BottleneckFairnessOptions.OverloadHold"/>, <see cref="BottleneckFairnessOptions.GoodputLimit"/>, in that
/// order) adjust the result. <see cref="BottleneckFairnessOptions.AsWritten"/> is Algorithm 4 as written: the queue
/// detector and the allocator, no stages.
/// </para>
/// <para>
/// Readings where the algorithm is silent: with no resources (or none with a positive capacity) φ is 1; with nobody
/// loading k′, n is taken as 1. Under a bottleneck, a workflow with no load on k′ keeps its σ (a non-leaf one inherits
/// σ′, as in the spare branch). σ = +∞ means "never limited": under a bottleneck the cut starts from the measured
/// admitted rate (else the arrival rate, else <see cref="BottleneckFairnessOptions.InitialRate"/>); a ramp-up starts
/// from the larger of the initial rate and the admitted rate, as it does from σ = 0. Every rate the policy computes
/// is at least <see cref="BottleneckFairnessOptions.MinimumRate"/>.
/// </para>
/// <para>
/// Single-threaded by contract: the rate adaptation controller calls it once per interval. It reads no clock, does no
/// I/O and allocates nothing once its scratch and per-workflow arrays have grown to the number of workflows.
/// </para>
/// </remarks>
public sealed class BottleneckFairnessPolicy : IRateLimitPolicy
{
    private readonly DemandOverloadDetector _detector;
    private readonly FairShareAllocator _allocator;
    private readonly RateControlStage[] _stages;
    private readonly RateControlInterval _interval = new();

    /// <summary>Creates the policy.</summary>
    /// <param name="options">β, the initial rate and the floor; defaults when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public BottleneckFairnessPolicy(BottleneckFairnessOptions? options = null)
    {
        options ??= new BottleneckFairnessOptions();
        options.Validate();
        options = options.Clone();

        // The pipeline: an overload detector, the allocator (Algorithm 4's ramp and cut), then the stages in order.
        _detector = new DemandOverloadDetector(options);
        _allocator = new FairShareAllocator(options);
        var stages = new List<RateControlStage>(3);
        if (options.HeldRateRegrowth is { } regrowth)
        {
            stages.Add(new HeldRateRegrowthStage(regrowth));
        }

        if (options.OverloadHold is { } hold)
        {
            stages.Add(new OverloadHoldStage(hold, options));
        }

        if (options.GoodputLimit is { } goodput)
        {
            stages.Add(new GoodputLimitStage(goodput, options));
        }

        _stages = [.. stages];
    }

    /// <summary>Creates a factory under the name <see cref="RateLimitPolicies.BottleneckFairness"/>.</summary>
    /// <param name="options">The options, validated now; defaults when <see langword="null"/>.</param>
    /// <returns>The factory; each process gets its own policy.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public static RateLimitPolicyFactory CreateFactory(BottleneckFairnessOptions? options = null) =>
        CreateFactory(RateLimitPolicies.BottleneckFairness, options ?? new BottleneckFairnessOptions());

    /// <summary>Creates a factory under a name of the caller's choice, for example <see cref="RateLimitPolicies.BottleneckFairnessAsWritten"/>.</summary>
    /// <param name="name">The configuration name.</param>
    /// <param name="options">The options, validated now.</param>
    /// <returns>The factory; each process gets its own policy.</returns>
    /// <exception cref="ArgumentException">The name is empty or the options are invalid.</exception>
    public static RateLimitPolicyFactory CreateFactory(string name, BottleneckFairnessOptions options)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(options);

        // A snapshot, so later edits to the options cannot make policies created afterwards differ or fail.
        options = options.Clone();
        options.Validate();
        return new BottleneckFairnessFactory(name, options);
    }

    /// <inheritdoc />
    void IRateLimitPolicy.ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        var workflows = inputs.Workflows;
        if (localRates.Length != workflows.Length)
        {
            throw new ArgumentException($"Expected {workflows.Length} rate slots (one per workflow), got {localRates.Length}.", nameof(localRates));
        }

        _interval.Start(inputs, _detector, _detector.Detect(inputs));
        _allocator.Allocate(_interval, localRates);
        foreach (var stage in _stages)
        {
            stage.Apply(_interval, localRates);
        }
    }

    private sealed class BottleneckFairnessFactory(string name, BottleneckFairnessOptions options) : RateLimitPolicyFactory
    {
        public override string Name => name;

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => new BottleneckFairnessPolicy(options);
    }
}
