// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Live;

/// <summary>Where a live run's instances are, and which of them this process hosts.</summary>
/// <remarks>
/// By default one process hosts every instance on 127.0.0.1 with ephemeral ports and offers the load. To spread a
/// scenario over processes or machines, give every instance an address; start one process per instance with
/// <see cref="LiveTopologyRunner.HostAsync"/> and one driver that hosts none (<see cref="HostedInstances"/> empty) and
/// offers the load. See docs/deployment.md.
/// </remarks>
public sealed class LiveRunnerOptions
{
    /// <summary>
    /// Gets the instances' addresses by service name, in instance order (e.g. <c>"bs": ["http://bs-0.bs:5000", ...]</c>);
    /// a service without an entry is hosted here on ephemeral loopback ports.
    /// </summary>
    public IDictionary<string, IList<string>> Addresses { get; } = new Dictionary<string, IList<string>>(StringComparer.Ordinal);

    /// <summary>
    /// Gets or sets the instances this process hosts, by name (<c>fe-0</c>, <c>bs-3</c>); every instance without an
    /// address when <see langword="null"/>.
    /// </summary>
    public ISet<string>? HostedInstances { get; set; }

    /// <summary>The loopback interface, the default of <see cref="ListenHost"/>.</summary>
    public const string LoopbackHost = "127.0.0.1";

    /// <summary>
    /// Gets or sets the host interface hosted instances listen on when they have an address: loopback by default, so a
    /// run serves no other machine unless asked to (<c>0.0.0.0</c> for every interface, as in a container).
    /// </summary>
    public string ListenHost { get; set; } = LoopbackHost;
}
