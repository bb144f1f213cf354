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
    /// (and the drop policy, if any) bound the load: the dissertation's baseline. In a scenario file <c>rateControl</c> is
    /// <see langword="true"/>, <see langword="false"/>, or an object of bottleneck fairness's options
    /// (<see cref="RateControlSettings"/>), which turns it on.
    /// </summary>
    /// <value><see langword="true"/>.</value>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool RateControl { get; set; } = true;

    /// <summary>
    /// Gets or sets bottleneck fairness's options as one JSON object, written in a scenario as the value of
    /// <c>rateControl</c> and bound by name onto the preset's <c>BottleneckFairnessOptions</c> with the configuration
    /// binder, e.g. <c>"rateControl": { "demandSmoothingTime": "00:00:04", "overloadHold": { "utilization": 0.7 } }</c>;
    /// an unknown name is an error, and <c>false</c> or <c>null</c> turns a stage off (docs/emulator.md).
    /// <see langword="null"/> keeps the preset.
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public System.Text.Json.JsonElement? RateControlSettings { get; set; }

    /// <summary><c>rateControl</c> as written: <see cref="RateControlSettings"/> when set, else <see cref="RateControl"/>.</summary>
    [System.Text.Json.Serialization.JsonInclude]
    [System.Text.Json.Serialization.JsonPropertyName("rateControl")]
    internal System.Text.Json.JsonElement RateControlJson
    {
        get => RateControlSettings ?? RateControlBinding.Boolean(RateControl);
        set
        {
            RateControl = value.ValueKind is not System.Text.Json.JsonValueKind.False;
            RateControlSettings = value.ValueKind is System.Text.Json.JsonValueKind.True or System.Text.Json.JsonValueKind.False ? null : value.Clone();
        }
    }

    /// <summary>
    /// Fields this type no longer has, by name, kept to say what to write instead (the per-knob <c>rate*</c> fields and
    /// <c>rateControlOptions</c>, replaced by the <c>rateControl</c> object); reported by the validator.
    /// </summary>
    [System.Text.Json.Serialization.JsonExtensionData]
    [System.Text.Json.Serialization.JsonInclude]
    internal Dictionary<string, System.Text.Json.JsonElement>? RemovedFields { get; set; }

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
    /// Gets how far above a workflow's arrival rate a downstream bottleneck rate still constrains it
    /// (<c>RateAdaptationOptions.DownstreamHeadroom</c>): +∞ under <c>bottleneck-fairness-paper</c>, as Algorithm 3 is
    /// written, else the library's default.
    /// </summary>
    internal double DownstreamHeadroom =>
        string.Equals(RateLimitPolicy, Cicero.Policies.RateLimiting.RateLimitPolicies.BottleneckFairnessAsWritten, StringComparison.OrdinalIgnoreCase)
            ? double.PositiveInfinity
            : new Cicero.RateAdaptation.RateAdaptationOptions().DownstreamHeadroom;

    /// <summary>
    /// The policies this configuration runs with: <paramref name="catalog"/>, with its own bottleneck fairness when
    /// <see cref="RateControlSettings"/> tunes it. The options apply on top of the preset <see cref="RateLimitPolicy"/>
    /// names: the safe defaults of <c>bottleneck-fairness</c>, or Algorithm 4 as written for <c>bottleneck-fairness-paper</c>.
    /// </summary>
    internal Cicero.Policies.Registration.PolicyCatalog Policies(Cicero.Policies.Registration.PolicyCatalog catalog)
    {
        if (!RateControl || RateControlSettings is not { } rateControl)
        {
            return catalog;
        }

        var asWritten = string.Equals(RateLimitPolicy, Cicero.Policies.RateLimiting.RateLimitPolicies.BottleneckFairnessAsWritten, StringComparison.OrdinalIgnoreCase);
        var options = asWritten ? Cicero.Policies.RateLimiting.BottleneckFairnessOptions.AsWritten() : new Cicero.Policies.RateLimiting.BottleneckFairnessOptions();
        RateControlBinding.Bind(rateControl, options);
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
    /// written, <c>"binding-limit"</c> or <c>"delay-guarded"</c>; the library's default (<c>"delay-guarded"</c>) when omitted.
    /// </summary>
    public string? C3RateVariant { get; set; }

    /// <summary>Gets or sets, for the <c>cake-slo</c> policy, the latency percentile compared with each workflow's SLO.</summary>
    /// <value>0.99 (Cake's).</value>
    public double SloPercentile { get; set; } = 0.99;

    /// <summary>Gets or sets, for the <c>cake-slo</c> policy, how often Cake's second-level scheduler revises shares, in seconds.</summary>
    /// <value>10 s (Cake's).</value>
    public double SloIntervalSeconds { get; set; } = 10;
}
