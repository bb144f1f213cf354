// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// One Cicero configuration a scenario is run under: the sub-task scheduler of every resource, whether distributed rate
/// control runs, and its policies and knobs. Names resolve through the policy catalog.
/// </summary>
public sealed class ConfigurationSpec
{
    /// <summary>Gets or sets the configuration's name, unique in the scenario (for example "baseline", "rc", "rc+drr").</summary>
    public string? Name { get; set; }

    /// <summary>
    /// Gets or sets whether rate adaptation runs. Without it every admission rate stays unlimited and only timeouts
    /// (and the drop policy, if any) bound the load: the dissertation's baseline.
    /// </summary>
    /// <value><see langword="true"/>.</value>
    public bool RateControl { get; set; } = true;

    /// <summary>Gets or sets the sub-task scheduler of every resource, for example "fifo" or "drr".</summary>
    /// <value>"fifo".</value>
    public string Scheduler { get; set; } = "fifo";

    /// <summary>
    /// Gets or sets the local rate-limit policy of every instance, for example "bottleneck-fairness" (safe defaults) or
    /// "bottleneck-fairness-paper" (Algorithm 4 as written, what the dissertation's reproductions use).
    /// </summary>
    /// <value>"bottleneck-fairness".</value>
    public string RateLimitPolicy { get; set; } = "bottleneck-fairness";

    /// <summary>Gets or sets the drop policy at the entry instances, for example "deadline-feasibility" or "never".</summary>
    /// <value>"deadline-feasibility".</value>
    public string DropPolicy { get; set; } = "deadline-feasibility";

    /// <summary>Gets or sets the quantile knob q in [0, 1].</summary>
    /// <value>0.5.</value>
    public double Quantile { get; set; } = 0.5;

    /// <summary>Gets or sets the control interval of rate adaptation, in milliseconds.</summary>
    /// <value>100 ms.</value>
    public double ControlIntervalMs { get; set; } = 100;

    /// <summary>Gets or sets the end-to-end deadline of workflows that do not set their own; none when omitted.</summary>
    public double? DeadlineMs { get; set; }

    /// <summary>Gets or sets how many requests of a workflow may wait at an entry instance for an admission token.</summary>
    /// <value>128.</value>
    public int AdmissionQueueLimit { get; set; } = 128;

    /// <summary>
    /// Gets or sets the replica selector of every blocks route, overriding the routes' own, so one scenario can compare
    /// selectors side by side; the routes' selectors when omitted.
    /// </summary>
    public string? ReplicaSelector { get; set; }

    /// <summary>
    /// Gets or sets whether a caller that holds a copy of the block itself serves the read locally (Wu's local fast
    /// path, <c>ReplicaGroupOptions.ServeLocally</c>): no selector, no network, and the read runs on the request's own
    /// thread instead of queueing for the callee's resources.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool ServeLocally { get; set; }

    /// <summary>
    /// Gets or sets whether every resource refuses a waiting sub-task whose request's deadline has passed when its turn
    /// comes (<c>ResourceSemaphoreOptions.DropExpiredWaiters</c>), instead of doing work nobody waits for.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool DropExpiredSubtasks { get; set; }

    /// <summary>
    /// Gets or sets the largest fraction of a workflow's rate the <c>bottleneck-fairness</c> policy may cut in one
    /// control interval (<c>BottleneckFairnessOptions.MaxDecrease</c>); <see langword="null"/> cuts to the fair share
    /// at once, as Algorithm 4 is written.
    /// </summary>
    public double? RateDecreaseLimit { get; set; }

    /// <summary>
    /// Gets or sets how far above a workflow's arrival rate the <c>bottleneck-fairness</c> policy may ramp its rate
    /// while capacity is spare (<c>BottleneckFairnessOptions.RampHeadroom</c>, at least 1); <see langword="null"/> ramps
    /// without bound, as Algorithm 4 is written.
    /// </summary>
    public double? RateRampHeadroom { get; set; }

    /// <summary>
    /// Gets or sets the load, as a multiple of capacity, at which the <c>bottleneck-fairness</c> policy treats a resource
    /// as a bottleneck (<c>BottleneckFairnessOptions.TargetLoad</c>, in [1, 4]); <see langword="null"/> is 1, as
    /// Algorithm 4 is written.
    /// </summary>
    public double? RateTargetLoad { get; set; }

    /// <summary>
    /// Gets or sets, in milliseconds, the time over which the <c>bottleneck-fairness</c> policy averages a resource's
    /// offered demand before it compares it with the capacity (<c>BottleneckFairnessOptions.DemandSmoothingTime</c>; 0
    /// turns the long average off); <see langword="null"/> keeps the preset's: 2 s under <c>bottleneck-fairness</c>, off
    /// under <c>bottleneck-fairness-paper</c>.
    /// </summary>
    public double? RateDemandSmoothingMs { get; set; }

    /// <summary>
    /// Gets or sets how many standard errors of its noise the <c>bottleneck-fairness</c> policy's long demand average
    /// must exceed the capacity by to count as overload, unless the backlog grows
    /// (<c>BottleneckFairnessOptions.OverloadConfidence</c>, in [0, 10]); <see langword="null"/> keeps the preset's: 3 under
    /// <c>bottleneck-fairness</c>, 0 (off) under <c>bottleneck-fairness-paper</c>.
    /// </summary>
    public double? RateOverloadConfidence { get; set; }

    /// <summary>
    /// Gets or sets whether the <c>bottleneck-fairness</c> policy limits how fast a held-back workflow's σ grows again
    /// after a cut (<c>BottleneckFairnessOptions.HeldRateRegrowth</c>, at the library's values when on);
    /// <see langword="null"/> keeps the preset's: off under both.
    /// </summary>
    public bool? RateHeldRegrowth { get; set; }

    /// <summary>
    /// Gets or sets the utilization of the target load, in (0, 1], at which the <c>bottleneck-fairness</c> policy keeps
    /// holding a workflow it cut in a real overload once the overload is gone (<c>BottleneckFairnessOptions.OverloadHold</c>,
    /// its other values the library's); <see langword="null"/> keeps the preset's: off under both.
    /// </summary>
    public double? RateOverloadHold { get; set; }

    /// <summary>
    /// Gets or sets whether the <c>bottleneck-fairness</c> policy limits a workflow, at an entry point, to a multiple of
    /// the rate at which its admitted requests succeed once they have mostly failed for a while
    /// (<c>BottleneckFairnessOptions.GoodputLimit</c>, at the library's values when on); <see langword="null"/> keeps the
    /// preset's: on under <c>bottleneck-fairness</c>, off under <c>bottleneck-fairness-paper</c>.
    /// </summary>
    public bool? RateGoodputLimit { get; set; }

    /// <summary>
    /// Gets or sets bottleneck fairness's options as one JSON object (<c>rateControlOptions</c>), bound by name onto the preset's
    /// <c>BottleneckFairnessOptions</c> with the configuration binder after the <c>rate*</c> fields above, e.g.
    /// <c>{ "demandSmoothingTime": "00:00:04", "overloadHold": { "utilization": 0.7 } }</c>; an unknown name is an error.
    /// <see langword="null"/> keeps the preset.
    /// </summary>
    public System.Text.Json.JsonElement? RateControlOptions { get; set; }

    /// <summary>
    /// Gets how far above a workflow's arrival rate a downstream bottleneck rate still constrains it
    /// (<c>RateAdaptationOptions.DownstreamHeadroom</c>): +∞ under <c>bottleneck-fairness-paper</c>, as Algorithm 3 is
    /// written, else the library's default.
    /// </summary>
    internal double DownstreamHeadroom =>
        string.Equals(RateLimitPolicy, Cicero.Policies.RateLimiting.RateLimitPolicies.BottleneckFairnessAsWritten, StringComparison.OrdinalIgnoreCase)
            ? double.PositiveInfinity
            : new Cicero.RateAdaptation.RateAdaptationOptions().DownstreamHeadroom;

    /// <summary>
    /// The policies this configuration runs with: <paramref name="catalog"/>, with its own bottleneck fairness when it
    /// tunes it. The knobs apply on top of the preset <see cref="RateLimitPolicy"/> names: the safe defaults of
    /// <c>bottleneck-fairness</c>, or Algorithm 4 as written for <c>bottleneck-fairness-paper</c>.
    /// </summary>
    internal Cicero.Policies.Registration.PolicyCatalog Policies(Cicero.Policies.Registration.PolicyCatalog catalog)
    {
        if (RateDecreaseLimit is null && RateRampHeadroom is null && RateTargetLoad is null && RateDemandSmoothingMs is null && RateOverloadConfidence is null && RateHeldRegrowth is null && RateOverloadHold is null && RateGoodputLimit is null && RateControlOptions is null)
        {
            return catalog;
        }

        var asWritten = string.Equals(RateLimitPolicy, Cicero.Policies.RateLimiting.RateLimitPolicies.BottleneckFairnessAsWritten, StringComparison.OrdinalIgnoreCase);
        var options = asWritten ? Cicero.Policies.RateLimiting.BottleneckFairnessOptions.AsWritten() : new Cicero.Policies.RateLimiting.BottleneckFairnessOptions();
        options.MaxDecrease = RateDecreaseLimit ?? options.MaxDecrease;
        options.RampHeadroom = RateRampHeadroom ?? options.RampHeadroom;
        options.TargetLoad = RateTargetLoad ?? options.TargetLoad;
        options.DemandSmoothingTime = RateDemandSmoothingMs is { } smoothing ? TimeSpan.FromMilliseconds(smoothing) : options.DemandSmoothingTime;
        options.OverloadConfidence = RateOverloadConfidence ?? options.OverloadConfidence;
        options.HeldRateRegrowth = RateHeldRegrowth switch
        {
            true => options.HeldRateRegrowth ?? new Cicero.Policies.RateLimiting.HeldRateRegrowthOptions(),
            false => null,
            null => options.HeldRateRegrowth,
        };
        options.OverloadHold = RateOverloadHold is { } utilization ? new Cicero.Policies.RateLimiting.OverloadHoldOptions { Utilization = utilization } : options.OverloadHold;
        options.GoodputLimit = RateGoodputLimit switch
        {
            true => options.GoodputLimit ?? new Cicero.Policies.RateLimiting.GoodputLimitOptions(),
            false => null,
            null => options.GoodputLimit,
        };
        if (RateControlOptions is { } rateControl)
        {
            RateControlBinding.Bind(rateControl, options);
        }

        var name = asWritten ? Cicero.Policies.RateLimiting.RateLimitPolicies.BottleneckFairnessAsWritten : Cicero.Policies.RateLimiting.RateLimitPolicies.BottleneckFairness;
        return Cicero.Policies.Registration.PolicyCatalogBuilder.From(catalog)
            .ReplaceRateLimitPolicy(Cicero.Policies.RateLimiting.BottleneckFairnessPolicy.CreateFactory(name, options))
            .Build();
    }

    /// <summary>
    /// Gets or sets the most tokens each of C3's per-replica rate limiters holds (<c>CubicRateOptions.MaxTokens</c>);
    /// the library's default (10) when omitted. A caller whose demand per replica is a few requests per 20 ms window
    /// (a Cassandra coordinator) starves on 10 tokens: its limit hovers at its demand and Poisson bursts back up.
    /// </summary>
    public double? C3MaxTokens { get; set; }

    /// <summary>
    /// Gets or sets C3's rate-control variant (<c>CubicRateOptions.Variant</c>): <c>"published"</c> for Algorithm 2 as
    /// written, <c>"binding-limit"</c> for the library's default (used when omitted).
    /// </summary>
    public string? C3RateVariant { get; set; }

    /// <summary>Gets or sets, for the <c>cake-slo</c> policy, the latency percentile compared with each workflow's SLO.</summary>
    /// <value>0.99 (Cake's).</value>
    public double SloPercentile { get; set; } = 0.99;

    /// <summary>Gets or sets, for the <c>cake-slo</c> policy, how often Cake's second-level scheduler revises shares, in seconds.</summary>
    /// <value>10 s (Cake's).</value>
    public double SloIntervalSeconds { get; set; } = 10;
}
