// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;
using Microsoft.AspNetCore.Http;

namespace Cicero.Benchmarks;

/// <summary>
/// A server call without a transport, for <see cref="InterceptorBenchmarks"/>. Like grpc-dotnet's own context it gives
/// the call's <see cref="HttpContext"/> (through the user-state key that <c>GetHttpContext()</c> reads for custom
/// contexts), so Cicero's server interceptor reads its header from the HTTP request as it does under ASP.NET Core.
/// </summary>
internal sealed class BenchServerCallContext(string method, Metadata requestHeaders, IDictionary<object, object> userState) : ServerCallContext
{
    /// <summary>The user-state key under which grpc-dotnet's <c>GetHttpContext()</c> finds a custom context's HttpContext.</summary>
    public const string HttpContextKey = "__HttpContext";

    private Metadata? _responseTrailers;

    protected override string MethodCore => method;

    protected override string HostCore => "127.0.0.1";

    protected override string PeerCore => "ipv4:127.0.0.1:40000";

    protected override DateTime DeadlineCore => DateTime.MaxValue;

    protected override Metadata RequestHeadersCore => requestHeaders;

    protected override CancellationToken CancellationTokenCore => CancellationToken.None;

    protected override Metadata ResponseTrailersCore => _responseTrailers ??= [];

    protected override Status StatusCore { get; set; }

    protected override WriteOptions? WriteOptionsCore { get; set; }

    protected override AuthContext AuthContextCore => throw new NotSupportedException();

    protected override IDictionary<object, object> UserStateCore => userState;

    protected override ContextPropagationToken CreatePropagationTokenCore(ContextPropagationOptions? options) => throw new NotSupportedException();

    protected override Task WriteResponseHeadersAsyncCore(Metadata responseHeaders) => Task.CompletedTask;
}
