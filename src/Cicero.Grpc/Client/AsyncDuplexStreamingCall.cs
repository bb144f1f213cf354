// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>A duplex-streaming call in flight.</summary>
/// <typeparam name="TRequest">The request type.</typeparam>
/// <typeparam name="TResponse">The response type.</typeparam>
public sealed class AsyncDuplexStreamingCall<TRequest, TResponse> : IDisposable
{
    private readonly Func<RpcStatus> _getStatus;
    private readonly Func<Metadata> _getTrailers;
    private readonly Action _dispose;

    /// <summary>Creates a call from its parts; interceptors use it to wrap a call.</summary>
    /// <param name="requestStream">The requests.</param>
    /// <param name="responseStream">The responses.</param>
    /// <param name="responseHeadersAsync">The response headers.</param>
    /// <param name="getStatus">Gets the status once the call has ended.</param>
    /// <param name="getTrailers">Gets the trailers once the call has ended.</param>
    /// <param name="dispose">Cancels the call if it is still running and frees it.</param>
    public AsyncDuplexStreamingCall(
        IClientStreamWriter<TRequest> requestStream,
        IAsyncStreamReader<TResponse> responseStream,
        Task<Metadata> responseHeadersAsync,
        Func<RpcStatus> getStatus,
        Func<Metadata> getTrailers,
        Action dispose)
    {
        RequestStream = requestStream ?? throw new ArgumentNullException(nameof(requestStream));
        ResponseStream = responseStream ?? throw new ArgumentNullException(nameof(responseStream));
        ResponseHeadersAsync = responseHeadersAsync ?? throw new ArgumentNullException(nameof(responseHeadersAsync));
        _getStatus = getStatus ?? throw new ArgumentNullException(nameof(getStatus));
        _getTrailers = getTrailers ?? throw new ArgumentNullException(nameof(getTrailers));
        _dispose = dispose ?? throw new ArgumentNullException(nameof(dispose));
    }

    /// <summary>Gets the request stream.</summary>
    public IClientStreamWriter<TRequest> RequestStream { get; }

    /// <summary>Gets the responses.</summary>
    public IAsyncStreamReader<TResponse> ResponseStream { get; }

    /// <summary>Gets the response headers.</summary>
    public Task<Metadata> ResponseHeadersAsync { get; }

    /// <summary>Gets the status.</summary>
    /// <returns>The status.</returns>
    public RpcStatus GetStatus() => _getStatus();

    /// <summary>Gets the trailers.</summary>
    /// <returns>The trailers.</returns>
    public Metadata GetTrailers() => _getTrailers();

    /// <inheritdoc />
    public void Dispose() => _dispose();
}
