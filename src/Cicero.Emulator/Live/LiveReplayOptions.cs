// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Live;

/// <summary>How <see cref="LiveTopologyRunner.ReplayAsync"/> offers a trace's requests.</summary>
public sealed class LiveReplayOptions
{
    /// <summary>
    /// Gets or sets the number of closed-loop clients, each sending the next request in trace order as soon as its
    /// previous one has an outcome; <see langword="null"/> replays open loop at the recorded arrival times.
    /// </summary>
    public int? ClosedLoopClients { get; set; }

    /// <summary>Gets or sets the factor arrivals are sped up by in open loop (2 = twice the load).</summary>
    /// <value>1.</value>
    public double SpeedUp { get; set; } = 1;
}
