// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>
/// The local resource-sharing policy of Algorithm 3, line 5: from local loads and the downstream rates, the rate σ^local
/// each workflow may be admitted at here. The announced rate is min(σ^local, σ′).
/// </summary>
/// <remarks>
/// Called once per control interval by one thread, with every workflow at once, so policies that share capacity
/// between workflows (max-min fairness) see the whole picture. Implementations do no I/O and read no clock.
/// </remarks>
public interface IRateLimitPolicy
{
    /// <summary>Computes the local rate of every workflow.</summary>
    /// <param name="inputs">Workflows, resources and loads.</param>
    /// <param name="localRates">One slot per workflow of <paramref name="inputs"/>, in the same order; write +∞ for no local limit.</param>
    /// <param name="now">The current timestamp.</param>
    void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now);
}
