// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>How busy one resource of a service was over the measured window: permits held over permits available.</summary>
/// <param name="Service">The service.</param>
/// <param name="Resource">The resource's name.</param>
/// <param name="Kind">The resource's kind.</param>
/// <param name="Capacity">Permits per instance.</param>
/// <param name="Mean">The utilisation averaged over the service's instances, in [0, 1].</param>
/// <param name="Max">The busiest instance's utilisation.</param>
public sealed record ResourceUtilization(string Service, string Resource, string Kind, int Capacity, double Mean, double Max);
