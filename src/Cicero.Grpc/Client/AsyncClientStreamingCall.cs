// SPDX-License-Identifier: Apache-2.0

using System.Runtime.CompilerServices;
using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>A client-streaming call in flight.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
public sealed class AsyncClientStreamingCall<TRequest, TResponse> : IDisposable
{
    private readonly Func<RpcStatus> _getStatus;
    private readonly Func<Metadata> _getTrailers;
    private readonly Action _dispose;

    /// <summary>Creates a call from its parts; interceptors use it to wrap a call.</summary>
    /// <param name="requestStream">The requests.</param>
    /// <param name="responseAsync">The response.</param>
    /// <param name="responseHeadersAsync">The response headers.</param>
    /// <param name="getStatus">Gets the status once the call has ended.</param>
    /// <param name="getTrailers">Gets the trailers once the call has ended.</param>
    /// <param name="dispose">Cancels the call if it is still running and frees it.</param>
    public AsyncClientStreamingCall(
        IClientStreamWriter<TRequest> requestStream,
        Task<TResponse> responseAsync,
        Task<Metadata> responseHeadersAsync,
        Func<RpcStatus> getStatus,
        Func<Metadata> getTrailers,
        Action dispose)
    {
        RequestStream = requestStream ?? throw new ArgumentNullException(nameof(requestStream));
        ResponseAsync = responseAsync ?? throw new ArgumentNullException(nameof(responseAsync));
        ResponseHeadersAsync = responseHeadersAsync ?? throw new ArgumentNullException(nameof(responseHeadersAsync));
        _getStatus = getStatus ?? throw new ArgumentNullException(nameof(getStatus));
        _getTrailers = getTrailers ?? throw new ArgumentNullException(nameof(getTrailers));
        _dispose = dispose ?? throw new ArgumentNullException(nameof(dispose));
    }

    /// <summary>Gets the request stream.</summary>
    public IClientStreamWriter<TRequest> RequestStream { get; }

    /// <summary>Gets the response.</summary>
    public Task<TResponse> ResponseAsync { get; }

    /// <summary>Gets the response headers.</summary>
    public Task<Metadata> ResponseHeadersAsync { get; }

    /// <summary>Gets the status.</summary>
    /// <returns>The status.</returns>
    public RpcStatus GetStatus() => _getStatus();

    /// <summary>Gets the trailers.</summary>
    /// <returns>The trailers.</returns>
    public Metadata GetTrailers() => _getTrailers();

    /// <summary>Awaits the response.</summary>
    /// <returns>The awaiter.</returns>
    public TaskAwaiter<TResponse> GetAwaiter() => ResponseAsync.GetAwaiter();

    /// <inheritdoc />
    public void Dispose() => _dispose();
}
