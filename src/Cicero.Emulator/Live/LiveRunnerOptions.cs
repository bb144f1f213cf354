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

    /// <summary>
    /// Gets or sets how far above its address's port a hosted instance listens (0 by default): a proxy that listens on
    /// the address and forwards to the instance (the fault proxy of eng/netns, which adds delay and jitter) sits between
    /// the instance and its callers while every process keeps the same addresses, and so the same instance ids.
    /// </summary>
    public int ListenPortOffset { get; set; }

    /// <summary>
    /// Gets or sets a separate port for rate exchange, as an offset above each instance's address port, or
    /// <see langword="null"/> (the default) to exchange rates on the address itself. With an offset every hosted instance
    /// also listens there and asks its callees there, so a firewall can cut the rate-exchange link between two
    /// instances and leave their calls flowing (the partition scenario of docs/reliability.md).
    /// </summary>
    public int? RateExchangePortOffset { get; set; }

    /// <summary>
    /// Gets or sets a file this process appends one CSV line per instance and metric to every second
    /// (<c>unix_ms,source,metric,value</c>: requests served, σ and downstream rate per workflow, the process's thread
    /// pool, handles and memory; the driver adds its start), so runs spread over processes can be followed from outside;
    /// none when <see langword="null"/>.
    /// </summary>
    public string? MonitorPath { get; set; }

    /// <summary>
    /// Gets or sets the factor by which <c>SIGUSR1</c> multiplies the service times of the instances a hosting process
    /// runs (<c>SIGUSR2</c> restores them), so a script can make one instance of a multi-process run slow; signals are
    /// left alone when <see langword="null"/> (the default). Linux only.
    /// </summary>
    public double? SlowFactorOnSignal { get; set; }
}
