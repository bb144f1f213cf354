// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Configuration;

/// <summary>The rate-exchange endpoint and client.</summary>
public sealed class RateExchangeOptions
{
    /// <summary>Gets or sets a value indicating whether the hosted control loop runs (every <c>Core.RateAdaptation.Interval</c>).</summary>
    public bool RunControlLoop { get; set; } = true;

    /// <summary>
    /// Gets or sets a shared token: when set, the endpoint answers only callers that send it in
    /// <see cref="CiceroMetadataKeys.RateExchangeToken"/>, and this process's client sends it.
    /// </summary>
    public string? SharedToken { get; set; }

    /// <summary>Gets or sets an authorization policy the endpoint requires (e.g. an mTLS client-certificate policy); none by default.</summary>
    public string? AuthorizationPolicy { get; set; }
}
