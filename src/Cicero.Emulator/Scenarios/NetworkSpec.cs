// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The network between instances: a one-way delay per message and the RPC timeout.</summary>
public sealed class NetworkSpec
{
    /// <summary>Gets or sets the one-way delay of every RPC message and rate query, in milliseconds.</summary>
    /// <value>0.25 ms.</value>
    public double OneWayDelayMs { get; set; } = 0.25;

    /// <summary>
    /// Gets or sets how long a caller (a client or an instance) waits for a reply before giving up, in milliseconds.
    /// The callee is not told and keeps working, as with the dissertation's C# RPC library.
    /// </summary>
    /// <value>10,000 ms (the dissertation's RPC timeout).</value>
    public double RpcTimeoutMs { get; set; } = 10_000;
}
