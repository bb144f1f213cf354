// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// A stage of the rate-control pipeline, run in order after the allocator: it may only lower (or, where its rule says
/// so, hold) the local rates the allocator computed. Synchronous, single-threaded, no clock and no I/O.
/// </summary>
internal abstract class RateControlStage
{
    /// <summary>Adjusts the interval's local rates σ^local, one per workflow.</summary>
    public abstract void Apply(RateControlInterval interval, Span<double> localRates);
}
