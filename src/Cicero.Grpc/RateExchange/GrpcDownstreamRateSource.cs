// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Grpc.Client;
using Cicero.Grpc.Protocol;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Grpc.RateExchange;

/// <summary>
/// Core's <see cref="IDownstreamRateSource"/> over gRPC: asks a downstream instance (whose id is its address) for the
/// rates it grants this caller. One channel per instance, created on first use; the controller's query timeout
/// cancels slow instances, so one cannot stall the loop.
/// </summary>
public sealed class GrpcDownstreamRateSource : IDownstreamRateSource, IDisposable
{
    private readonly ConcurrentDictionary<string, CallInvoker> _invokers = new(StringComparer.Ordinal);
    private readonly ConcurrentBag<RpcChannel> _channels = [];
    private readonly RpcChannelOptions? _channelOptions;
    private readonly string? _token;

    /// <summary>Creates the source.</summary>
    /// <param name="sharedToken">The token to present, when the downstream endpoints require one.</param>
    /// <param name="channelOptions">Options of the channels to instances; defaults when <see langword="null"/>.</param>
    public GrpcDownstreamRateSource(string? sharedToken = null, RpcChannelOptions? channelOptions = null)
    {
        _token = sharedToken;
        _channelOptions = channelOptions;
    }

    /// <inheritdoc />
    public async ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance instance, string caller, CancellationToken cancellationToken)
    {
        var invoker = _invokers.GetOrAdd(instance.Instance, CreateInvoker);
        var headers = _token is null ? null : new Metadata().Add(CiceroMetadataKeys.RateExchangeToken, _token);
        var response = await invoker.AsyncUnaryCall(
            RateExchangeMethods.GetAdmissionRates,
            new CallOptions(headers, CancellationToken: cancellationToken),
            new GetAdmissionRatesRequest { Caller = caller }).ResponseAsync.ConfigureAwait(false);

        var rates = new List<WorkflowRate>(response.Rates.Count);
        foreach (var rate in response.Rates)
        {
            // A malformed entry is skipped rather than failing the whole answer.
            if (WorkflowId.TryCreate(rate.Workflow, out var workflow, out _) && (!rate.HasRate || (double.IsFinite(rate.Rate) && rate.Rate >= 0)))
            {
                rates.Add(new WorkflowRate(workflow, rate.HasRate ? rate.Rate : double.PositiveInfinity));
            }
        }

        return new DownstreamRateAnswer(rates);
    }

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var channel in _channels)
        {
            channel.Dispose();
        }
    }

    private CallInvoker CreateInvoker(string address)
    {
        var channel = RpcChannel.ForAddress(address, _channelOptions);
        _channels.Add(channel);
        return channel.CreateCallInvoker();
    }
}
