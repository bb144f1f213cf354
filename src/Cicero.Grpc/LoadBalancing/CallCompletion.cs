// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.LoadBalancing;

/// <summary>How a picked call ended, for the balancer to learn from.</summary>
/// <param name="Status">The call's status.</param>
/// <param name="ResponseTime">From sending the request to the end of the call, as the client measured it.</param>
/// <param name="Trailers">The trailers, or <see langword="null"/> when none arrived (e.g. the server was unreachable).</param>
public readonly record struct CallCompletion(RpcStatus Status, TimeSpan ResponseTime, Metadata? Trailers);
