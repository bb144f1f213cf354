// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// The sum of a workflow's announced admission rates σ over the instances of a service, sampled at the end of a second
/// (Figure 5.9 plots it per tier).
/// </summary>
/// <param name="Second">The second the sample closes.</param>
/// <param name="Service">The service (tier).</param>
/// <param name="Workflow">The workflow.</param>
/// <param name="TotalRate">Σσ in requests per second; null when some instance does not limit the workflow (σ = +∞).</param>
public sealed record TierRateSecond(int Second, string Service, string Workflow, double? TotalRate);
