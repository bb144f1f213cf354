// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>A call invoker that sends every call through one interceptor before the inner invoker.</summary>
internal sealed class InterceptingCallInvoker(CallInvoker inner, ClientInterceptor interceptor) : CallInvoker
{
    public override AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options, TRequest request) =>
        interceptor.AsyncUnaryCall(request, new ClientInterceptorContext<TRequest, TResponse>(method, options), (r, c) => inner.AsyncUnaryCall(c.Method, c.Options, r));

    public override AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        Method<TRequest, TResponse> method,
        CallOptions options,
        TRequest request) =>
        interceptor.AsyncServerStreamingCall(request, new ClientInterceptorContext<TRequest, TResponse>(method, options), (r, c) => inner.AsyncServerStreamingCall(c.Method, c.Options, r));

    public override AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options) =>
        interceptor.AsyncClientStreamingCall(new ClientInterceptorContext<TRequest, TResponse>(method, options), c => inner.AsyncClientStreamingCall(c.Method, c.Options));

    public override AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options) =>
        interceptor.AsyncDuplexStreamingCall(new ClientInterceptorContext<TRequest, TResponse>(method, options), c => inner.AsyncDuplexStreamingCall(c.Method, c.Options));
}
