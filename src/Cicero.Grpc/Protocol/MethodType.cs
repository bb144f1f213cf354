// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>The four kinds of gRPC call.</summary>
public enum MethodType
{
    /// <summary>One request, one response.</summary>
    Unary,

    /// <summary>A stream of requests, one response.</summary>
    ClientStreaming,

    /// <summary>One request, a stream of responses.</summary>
    ServerStreaming,

    /// <summary>Streams both ways.</summary>
    DuplexStreaming,
}
