// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.RateLimiting;

/// <summary>
/// What an overload detector read in one interval (dissertation Algorithm 4, line 1): the bottleneck k′ and how far over
/// its target it is, or, with none, the resource with the least spare capacity and that spare fraction.
/// </summary>
/// <param name="Bottleneck">The congested resource's index, or −1 when none is.</param>
/// <param name="Overload">The bottleneck's φ = (target − load) ÷ target (negative); 0 without a bottleneck.</param>
/// <param name="Capacity">The permits the allocator shares at the bottleneck (target load × utilization).</param>
/// <param name="Drain">The permits that drain the bottleneck's backlog in the drain time, taken from held-back shares.</param>
/// <param name="Flood">Whether the bottleneck's demand is past twice its target (the cut goes to the fair level at once).</param>
/// <param name="Tightest">Without a bottleneck: the resource with the least spare capacity, or −1.</param>
/// <param name="Spare">Without a bottleneck: that resource's spare fraction φ in [0, 1] (1 with no resources).</param>
internal readonly record struct OverloadReading(int Bottleneck, double Overload, double Capacity, double Drain, bool Flood, int Tightest, double Spare)
{
    /// <summary>Gets whether a resource is congested this interval.</summary>
    public bool Overloaded => Bottleneck >= 0;
}
