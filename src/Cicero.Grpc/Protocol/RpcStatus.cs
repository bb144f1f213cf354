// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>The outcome of a call: a status code and a human-readable detail.</summary>
/// <param name="Code">The status code.</param>
/// <param name="Detail">The detail, empty when there is none.</param>
public readonly record struct RpcStatus(StatusCode Code, string Detail)
{
    /// <summary>Gets the status of a successful call.</summary>
    public static RpcStatus Ok => new(StatusCode.OK, string.Empty);

    /// <inheritdoc />
    public override string ToString() => Detail.Length == 0 ? Code.ToString() : $"{Code}: {Detail}";
}
