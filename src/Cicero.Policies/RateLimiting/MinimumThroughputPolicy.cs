// SPDX-License-Identifier: Apache-2.0

using System.Collections.Frozen;
using Cicero.RateAdaptation;

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// Minimum throughput guarantees (dissertation section 5.2.5): each workflow's local rate is its reservation plus a
/// max-min fair share of the unreserved capacity, computed over what it demands beyond its reservation.
/// </summary>
/// <remarks>
/// <para>
/// A workflow's demand is the larger of its measured arrival and admitted rates. Reservations are hard: a workflow's
/// local rate is never below its reservation, and reserved capacity is not lent out while its workflow is idle or
/// absent, so the pool shared is Capacity − Σ(all configured reservations). The pool is shared by
/// <see cref="MaxMinFairness"/> over the excess demands max(0, demand − reservation). What the excess demands leave of
/// the pool is split equally over all workflows as headroom, so a workflow can grow past its last measured demand
/// (otherwise upstream processes, which enforce the announced rate, would pin it there). The local rates therefore
/// sum to at most <see cref="MinimumThroughputOptions.Capacity"/>.
/// </para>
/// <para>
/// Single-threaded by contract; reads no clock, does no I/O and allocates nothing once its scratch arrays have grown
/// to the number of workflows.
/// </para>
/// </remarks>
public sealed class MinimumThroughputPolicy : IRateLimitPolicy
{
    private readonly FrozenDictionary<string, double> _reservations;
    private readonly double _capacity;
    private readonly double _pool;
    private double[] _reserved = [];
    private double[] _excess = [];
    private double[] _shares = [];

    /// <summary>Creates the policy.</summary>
    /// <param name="options">Capacity and reservations; defaults when <see langword="null"/>.</param>
    /// <exception cref="ArgumentException">The options are invalid, for example the reservations exceed the capacity.</exception>
    public MinimumThroughputPolicy(MinimumThroughputOptions? options = null)
    {
        options ??= new MinimumThroughputOptions();
        options.Validate();
        _reservations = options.Reservations.ToFrozenDictionary(StringComparer.Ordinal);
        _capacity = options.Capacity;
        var reservedTotal = 0.0;
        foreach (var reservation in _reservations.Values)
        {
            reservedTotal += reservation;
        }

        _pool = Math.Max(0, _capacity - reservedTotal);
    }

    /// <summary>Creates a factory under the name <see cref="RateLimitPolicies.MinimumThroughput"/>.</summary>
    /// <param name="options">Capacity and reservations, validated and copied now; defaults when <see langword="null"/>.</param>
    /// <returns>The factory; each process gets its own policy.</returns>
    /// <exception cref="ArgumentException">The options are invalid.</exception>
    public static RateLimitPolicyFactory CreateFactory(MinimumThroughputOptions? options = null)
    {
        options ??= new MinimumThroughputOptions();
        options.Validate();
        var snapshot = new MinimumThroughputOptions { Capacity = options.Capacity };
        foreach (var (workflow, reservation) in options.Reservations)
        {
            snapshot.Reservations[workflow] = reservation;
        }

        return new MinimumThroughputFactory(snapshot);
    }

    /// <inheritdoc />
    void IRateLimitPolicy.ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        ArgumentNullException.ThrowIfNull(inputs);
        var workflows = inputs.Workflows;
        var n = workflows.Length;
        if (localRates.Length != n)
        {
            throw new ArgumentException($"Expected {n} rate slots (one per workflow), got {localRates.Length}.", nameof(localRates));
        }

        if (double.IsPositiveInfinity(_capacity) || n == 0)
        {
            localRates.Fill(double.PositiveInfinity);
            return;
        }

        if (_reserved.Length < n)
        {
            _reserved = new double[n];
            _excess = new double[n];
            _shares = new double[n];
        }

        var reserved = _reserved.AsSpan(0, n);
        var excess = _excess.AsSpan(0, n);
        var shares = _shares.AsSpan(0, n);
        for (var j = 0; j < n; j++)
        {
            var workflow = workflows[j];
            reserved[j] = _reservations.TryGetValue(workflow.Workflow.Id.Value, out var reservation) ? reservation : 0;
            var demand = Math.Max(workflow.ArrivalRate, workflow.AdmittedRate);
            excess[j] = demand > reserved[j] ? demand - reserved[j] : 0;
        }

        MaxMinFairness.Allocate(excess, _pool, shares);
        var allocated = 0.0;
        for (var j = 0; j < n; j++)
        {
            allocated += shares[j];
        }

        var headroom = Math.Max(0, _pool - allocated) / n;
        for (var j = 0; j < n; j++)
        {
            localRates[j] = reserved[j] + shares[j] + headroom;
        }
    }

    private sealed class MinimumThroughputFactory(MinimumThroughputOptions options) : RateLimitPolicyFactory
    {
        public override string Name => RateLimitPolicies.MinimumThroughput;

        public override IRateLimitPolicy Create(RateLimitPolicyContext context) => new MinimumThroughputPolicy(options);
    }
}
