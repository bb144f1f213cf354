// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>
/// The set-up of the C3 paper's replica-selection simulation (Suresh et al., NSDI '15, §6). Defaults are the paper's
/// high-utilisation scenario with 150 clients.
/// </summary>
/// <remarks>
/// Offered load: a slot serves at rate μ (mean 4 ms) or 3μ (mean 4/3 ms) with equal probability, so its average rate
/// is (μ + 3μ)/2 = 2μ = 0.5 requests per ms, and the system's average capacity is
/// <see cref="Servers"/> × <see cref="Concurrency"/> × 2μ (50 × 4 × 0.5 = 100 requests per ms). The generators offer
/// <see cref="Utilization"/> of that (70 per ms), counting primary requests only; read repair adds
/// <see cref="ReadRepairProbability"/> × (replication − 1) more server work (another 20%, so servers run at 84%).
/// </remarks>
public sealed class ReplicaSimulationOptions
{
    /// <summary>Gets or sets the number of requests the generators create in total.</summary>
    /// <value>600,000.</value>
    public int Requests { get; set; } = 600_000;

    /// <summary>Gets or sets the number of servers.</summary>
    /// <value>50.</value>
    public int Servers { get; set; } = 50;

    /// <summary>Gets or sets the number of clients; each has its own selector and its own view of every server.</summary>
    /// <value>150.</value>
    public int Clients { get; set; } = 150;

    /// <summary>Gets or sets the number of Poisson workload generators; each hands every request to a uniformly chosen client.</summary>
    /// <value>200.</value>
    public int Generators { get; set; } = 200;

    /// <summary>Gets or sets the requests a server serves at a time; the rest wait in its FIFO queue.</summary>
    /// <value>4.</value>
    public int Concurrency { get; set; } = 4;

    /// <summary>Gets or sets the replication factor: a key's replicas are a uniformly chosen server and its successors.</summary>
    /// <value>3.</value>
    public int ReplicationFactor { get; set; } = 3;

    /// <summary>Gets or sets the slow mean service time 1/μ.</summary>
    /// <value>4 ms.</value>
    public TimeSpan SlowServiceTime { get; set; } = TimeSpan.FromMilliseconds(4);

    /// <summary>Gets or sets the range parameter D: the fast mean service time is 1/(D·μ).</summary>
    /// <value>3.</value>
    public double RangeFactor { get; set; } = 3;

    /// <summary>Gets or sets T, the fluctuation interval: every T each server independently redraws its mean service time.</summary>
    /// <value>500 ms.</value>
    public TimeSpan FluctuationInterval { get; set; } = TimeSpan.FromMilliseconds(500);

    /// <summary>Gets or sets the offered load as a fraction of the servers' average capacity.</summary>
    /// <value>0.7.</value>
    public double Utilization { get; set; } = 0.7;

    /// <summary>Gets or sets the probability that a request is also sent to every other replica of its group (read repair).</summary>
    /// <value>0.1.</value>
    public double ReadRepairProbability { get; set; } = 0.1;

    /// <summary>Gets or sets the one-way network delay, each way.</summary>
    /// <value>250 µs.</value>
    public TimeSpan NetworkDelay { get; set; } = TimeSpan.FromMicroseconds(250);

    /// <summary>Gets or sets the warm-up: only requests completing after it are measured.</summary>
    /// <value>2 s.</value>
    public TimeSpan WarmUp { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Gets or sets a value indicating whether the oracle's queue length counts the requests in service as well as the
    /// waiting ones (the authors' simulator's "clairvoyant" strategy does; the oracle is told the waiting queue).
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool OracleCountsInService { get; set; }

    /// <summary>Gets or sets b, the exponent of C3's queue penalty q̂^b (dissertation Figure 4.19 sweeps 1 to 4).</summary>
    /// <value>3.</value>
    public double ScoreExponent { get; set; } = 3;

    /// <summary>Gets or sets C3's n, the concurrency compensation's client count; null for <see cref="Clients"/> (the paper's setting).</summary>
    public double? ScoreClientCount { get; set; }

    /// <summary>
    /// Gets or sets the rate controllers' variant for C3 and rate-limited round robin. The simulation reproduces the
    /// paper, so Algorithm 2 as written is the default here (the library's default is <see cref="CubicRateVariant.DelayGuarded"/>).
    /// </summary>
    /// <value><see cref="CubicRateVariant.Published"/>.</value>
    public CubicRateVariant RateVariant { get; set; } = CubicRateVariant.Published;

    /// <summary>Gets or sets the rate controllers' increase rule (cubic, AIMD or BIC; dissertation Figure 4.20).</summary>
    /// <value><see cref="RateIncreaseRule.Cubic"/>.</value>
    public RateIncreaseRule RateIncrease { get; set; } = RateIncreaseRule.Cubic;

    /// <summary>
    /// Gets or sets the fraction of clients that generate <see cref="DemandSkew"/> of the requests (the paper's demand
    /// skew: 20% or 50% of the clients generate 80%); 0 spreads requests uniformly over the clients.
    /// </summary>
    /// <value>0.</value>
    public double HighDemandFraction { get; set; }

    /// <summary>Gets or sets the share of requests the <see cref="HighDemandFraction"/> of clients generate.</summary>
    /// <value>0.8 (used only when <see cref="HighDemandFraction"/> is positive).</value>
    public double DemandSkew { get; set; } = 0.8;

    /// <summary>
    /// Gets or sets when a demand surge starts (dissertation Figure 4.20: at 10 s); null for none. From then on
    /// <see cref="SurgeClients"/> clients each get an extra Poisson stream that lifts the offered load to
    /// <see cref="SurgeUtilization"/>.
    /// </summary>
    public TimeSpan? SurgeAt { get; set; }

    /// <summary>Gets or sets how many clients (the first ones) receive the surge; the others are the low-rate clients.</summary>
    /// <value>3.</value>
    public int SurgeClients { get; set; } = 3;

    /// <summary>Gets or sets the offered load during the surge, as a fraction of the average capacity.</summary>
    /// <value>0.6.</value>
    public double SurgeUtilization { get; set; } = 0.6;

    /// <summary>Gets or sets how often server 0's queue (waiting plus in service) is sampled for <see cref="ReplicaSimulationResult.QueueSamples"/>; zero for never.</summary>
    /// <value>Zero.</value>
    public TimeSpan QueueSamplePeriod { get; set; }

    /// <summary>Gets the mean service time of a fast server, 1/(D·μ).</summary>
    public TimeSpan FastServiceTime => SlowServiceTime / RangeFactor;

    /// <summary>Gets the offered arrival rate of primary requests, per millisecond.</summary>
    public double ArrivalRatePerMs
    {
        get
        {
            var mu = 1 / SlowServiceTime.TotalMilliseconds;
            var averageSlotRate = (mu + (RangeFactor * mu)) / 2;
            return Utilization * Servers * Concurrency * averageSlotRate;
        }
    }

    /// <summary>Checks the options.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range.</exception>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Requests, nameof(Requests));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Clients, nameof(Clients));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Generators, nameof(Generators));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(Concurrency, nameof(Concurrency));
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(ReplicationFactor, nameof(ReplicationFactor));
        ArgumentOutOfRangeException.ThrowIfLessThan(Servers, ReplicationFactor, nameof(Servers));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(SlowServiceTime, TimeSpan.Zero, nameof(SlowServiceTime));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(FluctuationInterval, TimeSpan.Zero, nameof(FluctuationInterval));
        ArgumentOutOfRangeException.ThrowIfLessThan(NetworkDelay, TimeSpan.Zero, nameof(NetworkDelay));
        ArgumentOutOfRangeException.ThrowIfLessThan(WarmUp, TimeSpan.Zero, nameof(WarmUp));
        if (!(RangeFactor >= 1) || !double.IsFinite(RangeFactor))
        {
            throw new ArgumentOutOfRangeException(nameof(RangeFactor), RangeFactor, "D must be at least 1.");
        }

        if (!(Utilization > 0) || !double.IsFinite(Utilization))
        {
            throw new ArgumentOutOfRangeException(nameof(Utilization), Utilization, "Must be positive.");
        }

        if (!(ScoreExponent > 0) || !double.IsFinite(ScoreExponent))
        {
            throw new ArgumentOutOfRangeException(nameof(ScoreExponent), ScoreExponent, "b must be a positive number.");
        }

        if (!(HighDemandFraction >= 0 && HighDemandFraction < 1) || !(DemandSkew > 0 && DemandSkew < 1))
        {
            throw new ArgumentOutOfRangeException(nameof(HighDemandFraction), HighDemandFraction, "The high-demand fraction must be in [0, 1) and the skew in (0, 1).");
        }

        if (HighDemandFraction > 0 && (int)(HighDemandFraction * Clients) is var heavy && (heavy < 1 || heavy >= Clients))
        {
            throw new ArgumentOutOfRangeException(nameof(HighDemandFraction), HighDemandFraction, $"Gives {heavy} high-demand clients of {Clients}; need at least one of each kind.");
        }

        if (SurgeAt is { } surge && (surge < TimeSpan.Zero || SurgeClients < 1 || SurgeClients >= Clients || !(SurgeUtilization > Utilization) || !double.IsFinite(SurgeUtilization)))
        {
            throw new ArgumentOutOfRangeException(nameof(SurgeAt), SurgeAt, $"A surge needs a non-negative start, 1 to {Clients - 1} surge clients (was {SurgeClients}) and a surge utilisation above {Utilization} (was {SurgeUtilization}).");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(QueueSamplePeriod, TimeSpan.Zero, nameof(QueueSamplePeriod));
        if (!Enum.IsDefined(RateVariant) || !Enum.IsDefined(RateIncrease))
        {
            throw new ArgumentOutOfRangeException(nameof(RateVariant), $"{RateVariant}/{RateIncrease}", "Unknown rate variant or increase rule.");
        }

        if (!(ReadRepairProbability >= 0 && ReadRepairProbability <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(ReadRepairProbability), ReadRepairProbability, "Must be in [0, 1].");
        }
    }
}
