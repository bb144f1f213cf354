// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>A call ended with a status other than <see cref="StatusCode.OK"/>.</summary>
/// <remarks>A handler throws it to end a call with that status and trailers; a client sees it when a call fails.</remarks>
public sealed class RpcException : Exception
{
    /// <summary>Creates the exception with an <see cref="StatusCode.Unknown"/> status.</summary>
    public RpcException()
        : this(new RpcStatus(StatusCode.Unknown, string.Empty))
    {
    }

    /// <summary>Creates the exception with an <see cref="StatusCode.Unknown"/> status and a detail.</summary>
    /// <param name="message">The detail.</param>
    public RpcException(string message)
        : this(new RpcStatus(StatusCode.Unknown, message))
    {
    }

    /// <summary>Creates the exception with an <see cref="StatusCode.Unknown"/> status, a detail and a cause.</summary>
    /// <param name="message">The detail.</param>
    /// <param name="innerException">The cause.</param>
    public RpcException(string message, Exception innerException)
        : base(message, innerException)
    {
        Status = new RpcStatus(StatusCode.Unknown, message);
        Trailers = new Metadata();
    }

    /// <summary>Creates the exception for a status.</summary>
    /// <param name="status">The status.</param>
    /// <param name="trailers">The trailers sent or received with it; empty when <see langword="null"/>.</param>
    /// <param name="innerException">The cause, if any.</param>
    public RpcException(RpcStatus status, Metadata? trailers = null, Exception? innerException = null)
        : base(status.ToString(), innerException)
    {
        Status = status;
        Trailers = trailers ?? new Metadata();
    }

    /// <summary>Gets the status.</summary>
    public RpcStatus Status { get; }

    /// <summary>Gets the status code.</summary>
    public StatusCode StatusCode => Status.Code;

    /// <summary>Gets the trailers.</summary>
    public Metadata Trailers { get; }
}
