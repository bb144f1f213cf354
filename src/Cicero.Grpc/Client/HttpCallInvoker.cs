// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>Sends calls over the channel's HTTP/2 connections.</summary>
internal sealed class HttpCallInvoker(RpcChannel channel) : CallInvoker
{
    public override AsyncUnaryCall<TResponse> AsyncUnaryCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options, TRequest request)
    {
        var call = new GrpcCall<TRequest, TResponse>(channel, method, options);
        var response = call.RunUnaryAsync(request);
        return new AsyncUnaryCall<TResponse>(response, call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    public override AsyncServerStreamingCall<TResponse> AsyncServerStreamingCall<TRequest, TResponse>(
        Method<TRequest, TResponse> method,
        CallOptions options,
        TRequest request)
    {
        var call = new GrpcCall<TRequest, TResponse>(channel, method, options);
        call.StartServerStreaming(request);
        return new AsyncServerStreamingCall<TResponse>(call.ResponseStream, call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    public override AsyncClientStreamingCall<TRequest, TResponse> AsyncClientStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options)
    {
        var call = new GrpcCall<TRequest, TResponse>(channel, method, options);
        var response = call.RunClientStreamingAsync();
        return new AsyncClientStreamingCall<TRequest, TResponse>(call.RequestStream, response, call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }

    public override AsyncDuplexStreamingCall<TRequest, TResponse> AsyncDuplexStreamingCall<TRequest, TResponse>(Method<TRequest, TResponse> method, CallOptions options)
    {
        var call = new GrpcCall<TRequest, TResponse>(channel, method, options);
        call.StartDuplexStreaming();
        return new AsyncDuplexStreamingCall<TRequest, TResponse>(call.RequestStream, call.ResponseStream, call.ResponseHeadersAsync, call.GetStatus, call.GetTrailers, call.Dispose);
    }
}
