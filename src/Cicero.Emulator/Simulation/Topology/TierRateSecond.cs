// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// The sum of a workflow's announced admission rates σ over the instances of a service, sampled at the end of a second
/// (Figure 5.9 plots it per tier).
/// </summary>
/// <param name="Second">The second the sample closes.</param>
/// <param name="Service">The service (tier).</param>
/// <param name="Workflow">The workflow.</param>
/// <param name="TotalRate">Σσ in requests per second over the instances that limit the workflow; null when none does.</param>
/// <param name="LimitedInstances">How many of the service's instances announce a finite σ for the workflow.</param>
/// <param name="ArrivalRate">The workflow's measured arrivals at the tier, calls per second summed over its instances.</param>
/// <param name="AdmittedRate">The workflow's measured admissions at the tier, requests per second summed over its instances.</param>
public sealed record TierRateSecond(int Second, string Service, string Workflow, double? TotalRate, int LimitedInstances, double ArrivalRate = 0, double AdmittedRate = 0);
