// SPDX-License-Identifier: Apache-2.0

using System.Security.Claims;
using Cicero.Grpc.Protocol;
using Microsoft.AspNetCore.Http;

namespace Cicero.Grpc.Server;

/// <summary>A server-side call: its method, headers, deadline, cancellation, and the trailers it will send.</summary>
public sealed class ServerCallContext
{
    private Metadata? _responseTrailers;

    internal ServerCallContext(
        HttpContext httpContext,
        string method,
        MethodType methodType,
        Metadata requestHeaders,
        DateTimeOffset? deadline,
        CancellationToken cancellationToken)
    {
        HttpContext = httpContext;
        Method = method;
        MethodType = methodType;
        RequestHeaders = requestHeaders;
        Deadline = deadline;
        CancellationToken = cancellationToken;
    }

    /// <summary>Gets the ASP.NET Core request behind the call.</summary>
    public HttpContext HttpContext { get; }

    /// <summary>Gets the method's path, <c>/service/method</c>.</summary>
    public string Method { get; }

    /// <summary>Gets the kind of call.</summary>
    public MethodType MethodType { get; }

    /// <summary>Gets the caller's address, <c>ip:port</c>, if known.</summary>
    public string Peer => HttpContext.Connection.RemoteIpAddress is { } ip ? $"{ip}:{HttpContext.Connection.RemotePort}" : "unknown";

    /// <summary>Gets the authenticated caller (an anonymous principal when there is none).</summary>
    public ClaimsPrincipal User => HttpContext.User;

    /// <summary>Gets the request headers, without the transport's own.</summary>
    public Metadata RequestHeaders { get; }

    /// <summary>Gets the trailers sent with the status; handlers and interceptors add to them.</summary>
    public Metadata ResponseTrailers => _responseTrailers ??= new Metadata();

    /// <summary>Gets the trailers if anyone added to them (most calls carry none but the status).</summary>
    internal Metadata? ResponseTrailersIfAny => _responseTrailers;

    /// <summary>Gets the call's deadline from the caller's <c>grpc-timeout</c>, if it sent one.</summary>
    public DateTimeOffset? Deadline { get; }

    /// <summary>Gets a token cancelled when the caller goes away or the deadline passes.</summary>
    public CancellationToken CancellationToken { get; }

    /// <summary>Gets or sets the status to send when the handler returns normally.</summary>
    public RpcStatus Status { get; set; } = RpcStatus.Ok;

    /// <summary>Gets a bag for interceptors and handlers of this call to share state.</summary>
    public IDictionary<object, object?> Items => HttpContext.Items;
}
