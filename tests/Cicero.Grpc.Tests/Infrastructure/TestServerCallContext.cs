// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>
/// A grpc-dotnet <see cref="ServerCallContext"/> for driving interceptors without a server. By default it is a custom
/// host's context (no <see cref="HttpContext"/>: Cicero reads its header from <see cref="ServerCallContext.RequestHeaders"/>);
/// <see cref="WithHttpHeader"/> makes it look like ASP.NET Core's, whose raw request headers Cicero decodes itself.
/// </summary>
internal sealed class TestServerCallContext : ServerCallContext
{
    // grpc-dotnet's own key for the HttpContext of a custom invoker's call (ServerCallContextExtensions.GetHttpContext).
    private const string HttpContextKey = "__HttpContext";

    private readonly Dictionary<object, object> _userState = [];
    private Status _status;
    private WriteOptions? _writeOptions;

    public TestServerCallContext(string method = "/cicero.test.Probe/Work", DateTime? deadline = null, Metadata? requestHeaders = null, CancellationToken cancellationToken = default)
    {
        MethodCore = method;
        DeadlineCore = deadline ?? DateTime.MaxValue;
        RequestHeadersCore = requestHeaders ?? [];
        CancellationTokenCore = cancellationToken;
    }

    /// <summary>Gets the HTTP request of an ASP.NET Core-like call, when <see cref="WithHttpHeader"/> made one.</summary>
    public HttpContext? Http => _userState.TryGetValue(HttpContextKey, out var http) ? (HttpContext)http : null;

    /// <summary>Gets the response headers the handler wrote, if it did.</summary>
    public Metadata? WrittenResponseHeaders { get; private set; }

    protected override string MethodCore { get; }

    protected override string HostCore => "127.0.0.1";

    protected override string PeerCore => "ipv4:127.0.0.1:50000";

    protected override DateTime DeadlineCore { get; }

    protected override Metadata RequestHeadersCore { get; }

    protected override CancellationToken CancellationTokenCore { get; }

    protected override Metadata ResponseTrailersCore { get; } = [];

    protected override Status StatusCore
    {
        get => _status;
        set => _status = value;
    }

    protected override WriteOptions? WriteOptionsCore
    {
        get => _writeOptions;
        set => _writeOptions = value;
    }

    protected override AuthContext AuthContextCore { get; } = new(null, []);

    protected override IDictionary<object, object> UserStateCore => _userState;

    /// <summary>
    /// Makes the call an ASP.NET Core one (an <see cref="HttpContext"/> in the user state, as grpc-dotnet documents for
    /// custom invokers) and adds a raw request header, exactly as the client's text would arrive.
    /// </summary>
    public TestServerCallContext WithHttpHeader(string name, params string[] values)
    {
        if (Http is not { } http)
        {
            http = new DefaultHttpContext();
            _userState[HttpContextKey] = http;
        }

        http.Request.Headers.Append(name, values);
        return this;
    }

    protected override Task WriteResponseHeadersAsyncCore(Metadata responseHeaders)
    {
        WrittenResponseHeaders = responseHeaders;
        return Task.CompletedTask;
    }

    protected override ContextPropagationToken CreatePropagationTokenCore(ContextPropagationOptions? options) =>
        throw new NotSupportedException("Context propagation is not part of these tests.");
}
