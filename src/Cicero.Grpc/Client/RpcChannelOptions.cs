// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.LoadBalancing;

namespace Cicero.Grpc.Client;

/// <summary>Options of a <see cref="RpcChannel"/>.</summary>
public sealed class RpcChannelOptions
{
    /// <summary>Gets or sets the HTTP handler; a <see cref="System.Net.Http.SocketsHttpHandler"/> tuned for HTTP/2 when <see langword="null"/>.</summary>
    public HttpMessageHandler? HttpHandler { get; set; }

    /// <summary>Gets or sets a value indicating whether disposing the channel disposes <see cref="HttpHandler"/>.</summary>
    public bool DisposeHttpHandler { get; set; } = true;

    /// <summary>Gets or sets the largest response message accepted, in bytes; 4 MiB by default.</summary>
    public int MaxReceiveMessageSize { get; set; } = 4 * 1024 * 1024;

    /// <summary>Gets or sets the largest request message sent, in bytes; 4 MiB by default.</summary>
    public int MaxSendMessageSize { get; set; } = 4 * 1024 * 1024;

    /// <summary>Gets or sets the load-balancing policy's name; <c>round_robin</c> by default.</summary>
    public string LoadBalancingPolicy { get; set; } = RoundRobinLoadBalancerFactory.PolicyName;

    /// <summary>Gets the policies the channel can use besides the built-in <c>round_robin</c>, e.g. Cicero's <c>c3</c>.</summary>
    public IList<LoadBalancerFactory> LoadBalancerFactories { get; } = [];

    /// <summary>Gets or sets the clock for deadlines and response times.</summary>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;
}
