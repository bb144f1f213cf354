// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;

namespace Cicero.Grpc.Interop.Tests.Hosting;

/// <summary>
/// An HTTP handler under a <c>GrpcChannel</c> that sees the wire: it can rewrite a request's headers before they are
/// sent (what a broken or hostile client would send) and records the <c>grpc-encoding</c> of each response, which
/// grpc-dotnet keeps out of the call's metadata.
/// </summary>
public sealed class WireTap : DelegatingHandler
{
    private readonly Action<HttpRequestMessage>? _rewrite;
    private readonly ConcurrentQueue<string?>? _responseEncodings;

    /// <summary>Creates the handler over a new <see cref="SocketsHttpHandler"/>.</summary>
    /// <param name="rewrite">Changes each request before it is sent; none when <see langword="null"/>.</param>
    /// <param name="responseEncodings">
    /// Receives the <c>grpc-encoding</c> response header of each call, in order (<see langword="null"/> when absent).
    /// </param>
    public WireTap(Action<HttpRequestMessage>? rewrite = null, ConcurrentQueue<string?>? responseEncodings = null)
        : base(new SocketsHttpHandler())
    {
        _rewrite = rewrite;
        _responseEncodings = responseEncodings;
    }

    /// <inheritdoc />
    protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(request);
        _rewrite?.Invoke(request);
        var response = await base.SendAsync(request, cancellationToken);
        _responseEncodings?.Enqueue(response.Headers.TryGetValues("grpc-encoding", out var values) ? values.FirstOrDefault() : null);
        return response;
    }
}
