// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A service: a name, a number of identical instances and the resources each instance has.</summary>
public sealed class ServiceSpec
{
    /// <summary>Gets or sets the service's name, unique in the scenario (for example "fe", "auth", "ps", "bs").</summary>
    public string? Name { get; set; }

    /// <summary>Gets or sets the number of instances (processes).</summary>
    /// <value>1.</value>
    public int Instances { get; set; } = 1;

    /// <summary>Gets or sets the resources of each instance; at most one thread pool and one connection pool.</summary>
    public IList<ResourceSpec>? Resources { get; set; }

    /// <summary>Gets or sets the instances' background activity (periods of slower service); none when omitted.</summary>
    public BackgroundSpec? Background { get; set; }
}
