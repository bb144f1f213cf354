// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>A gRPC method: its kind, its service and name, and how its messages are marshalled.</summary>
/// <typeparam name="TRequest">The request message type.</typeparam>
/// <typeparam name="TResponse">The response message type.</typeparam>
public sealed class Method<TRequest, TResponse>
{
    /// <summary>Creates a method.</summary>
    /// <param name="type">The kind of call.</param>
    /// <param name="serviceName">The fully qualified service name, e.g. <c>cicero.v1.RateExchange</c>.</param>
    /// <param name="name">The method name, e.g. <c>GetAdmissionRates</c>.</param>
    /// <param name="requestMarshaller">The request marshaller.</param>
    /// <param name="responseMarshaller">The response marshaller.</param>
    public Method(MethodType type, string serviceName, string name, Marshaller<TRequest> requestMarshaller, Marshaller<TResponse> responseMarshaller)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(serviceName);
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(requestMarshaller);
        ArgumentNullException.ThrowIfNull(responseMarshaller);
        Type = type;
        ServiceName = serviceName;
        Name = name;
        FullName = $"/{serviceName}/{name}";
        RequestMarshaller = requestMarshaller;
        ResponseMarshaller = responseMarshaller;
    }

    /// <summary>Gets the kind of call.</summary>
    public MethodType Type { get; }

    /// <summary>Gets the fully qualified service name.</summary>
    public string ServiceName { get; }

    /// <summary>Gets the method name.</summary>
    public string Name { get; }

    /// <summary>Gets the HTTP/2 path, <c>/service/method</c>.</summary>
    public string FullName { get; }

    /// <summary>Gets the request marshaller.</summary>
    public Marshaller<TRequest> RequestMarshaller { get; }

    /// <summary>Gets the response marshaller.</summary>
    public Marshaller<TResponse> ResponseMarshaller { get; }

    /// <inheritdoc />
    public override string ToString() => FullName;
}
