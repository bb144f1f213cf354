// SPDX-License-Identifier: Apache-2.0

using System.Security.Cryptography;
using System.Text;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.Runtime;
using Grpc.Core;

namespace Cicero.Grpc.RateExchange;

/// <summary>Answers <c>GetAdmissionRates</c>: the rates this instance grants the asking caller, per workflow.</summary>
internal sealed class RateExchangeService(CiceroRuntime runtime, CiceroInstance instance, CiceroGrpcOptions options) : Protocol.RateExchange.RateExchangeBase
{
    /// <summary>The methods' common prefix, <c>/cicero.v1.RateExchange/</c>: the server interceptor lets them through.</summary>
    public const string MethodPrefix = "/cicero.v1.RateExchange/";

    private readonly byte[]? _token = options.RateExchange.SharedToken is { Length: > 0 } token ? Encoding.UTF8.GetBytes(token) : null;

    public override Task<GetAdmissionRatesResponse> GetAdmissionRates(GetAdmissionRatesRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);
        if (_token is not null)
        {
            var presented = Classification.RequestHeaderText.Read(context, CiceroMetadataKeys.RateExchangeToken);
            if (presented is null)
            {
                throw new RpcException(new Status(StatusCode.Unauthenticated, $"The rate-exchange endpoint requires the '{CiceroMetadataKeys.RateExchangeToken}' header."));
            }

            if (!CryptographicOperations.FixedTimeEquals(Encoding.UTF8.GetBytes(presented), _token))
            {
                throw new RpcException(new Status(StatusCode.PermissionDenied, "The rate-exchange token is wrong."));
            }
        }

        if (string.IsNullOrWhiteSpace(request.Caller))
        {
            throw new RpcException(new Status(StatusCode.InvalidArgument, "GetAdmissionRatesRequest.caller is empty."));
        }

        var answer = runtime.RateAdaptation.GetAdmissionRatesFor(request.Caller);
        var response = new GetAdmissionRatesResponse { Instance = IsPeer(context) ? instance.Id : string.Empty };
        foreach (var rate in answer.Rates)
        {
            var entry = new WorkflowAdmissionRate { Workflow = rate.Workflow.Value };
            if (double.IsFinite(rate.Rate))
            {
                entry.Rate = rate.Rate;
            }

            response.Rates.Add(entry);
        }

        return Task.FromResult(response);
    }

    /// <summary>
    /// Whether the caller may learn this instance's id (its internal address): the trailers' rule. A caller that
    /// presented the shared token or passed the endpoint's authorization policy is a peer; at an entry point without
    /// either, only a caller the options trust is. The rates themselves name workflows, not addresses.
    /// </summary>
    private bool IsPeer(ServerCallContext context) =>
        _token is not null
        || options.RateExchange.AuthorizationPolicy is { Length: > 0 }
        || !options.IsEntryPoint
        || options.TrustIncomingContext
        || options.ExposeInstanceIdToUntrustedCallers
        || (options.IsTrustedCaller?.Invoke(context) ?? false);
}
