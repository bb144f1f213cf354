// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Server;

/// <summary>Options of the gRPC endpoints this process serves.</summary>
public sealed class GrpcServerOptions
{
    /// <summary>Gets or sets the largest request message accepted, in bytes; 4 MiB by default, as in gRPC.</summary>
    public int MaxReceiveMessageSize { get; set; } = 4 * 1024 * 1024;

    /// <summary>Gets or sets the largest response message sent, in bytes; 4 MiB by default.</summary>
    public int MaxSendMessageSize { get; set; } = 4 * 1024 * 1024;

    /// <summary>Gets or sets a value indicating whether exception messages of failed handlers go to the caller.</summary>
    /// <remarks>Off by default: an exception's text can leak internals across a trust boundary.</remarks>
    public bool EnableDetailedErrors { get; set; }
}
