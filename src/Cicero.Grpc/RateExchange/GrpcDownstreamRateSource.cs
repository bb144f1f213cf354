// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Grpc.Logging;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.RateAdaptation;
using Cicero.Workflows;
using Grpc.Core;
using Grpc.Net.Client;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Cicero.Grpc.RateExchange;

/// <summary>
/// Core's <see cref="IDownstreamRateSource"/> over gRPC: asks a downstream instance (whose id is its address) for the
/// rates it grants this caller through the generated <c>cicero.v1.RateExchange</c> client. One
/// <see cref="GrpcChannel"/> per instance, created on first use; the controller's query timeout cancels slow
/// instances, so one cannot stall the loop. An instance that answers <c>UNIMPLEMENTED</c> (a gRPC service without
/// Cicero) is logged once, reported as not taking part, and asked again only every <see cref="UnsupportedRetryInterval"/>.
/// </summary>
public sealed partial class GrpcDownstreamRateSource : IDownstreamRateSource, IDisposable
{
    /// <summary>How long an instance that has no rate exchange is left alone before it is asked again.</summary>
    public static readonly TimeSpan UnsupportedRetryInterval = TimeSpan.FromSeconds(60);

    private readonly ConcurrentDictionary<string, Instance> _instances = new(StringComparer.Ordinal);
    private readonly Func<string, GrpcChannel> _createChannel;
    private readonly string? _token;
    private readonly ILogger _logger;
    private readonly TimeProvider _timeProvider;

    /// <summary>Creates the source.</summary>
    /// <param name="sharedToken">The token to present, when the downstream endpoints require one.</param>
    /// <param name="createChannel">Creates the channel to an instance's address; <see cref="GrpcChannel.ForAddress(string)"/> when <see langword="null"/>.</param>
    /// <param name="logger">Where an instance without rate exchange, failures and recoveries are reported; none when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock of the retry interval; the system clock when <see langword="null"/>.</param>
    public GrpcDownstreamRateSource(string? sharedToken = null, Func<string, GrpcChannel>? createChannel = null, ILogger<GrpcDownstreamRateSource>? logger = null, TimeProvider? timeProvider = null)
    {
        _token = sharedToken;
        _createChannel = createChannel ?? (static address => GrpcChannel.ForAddress(address));
        _logger = logger ?? (ILogger)NullLogger.Instance;
        _timeProvider = timeProvider ?? TimeProvider.System;
    }

    /// <inheritdoc />
    public async ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance instance, string caller, CancellationToken cancellationToken)
    {
        var target = _instances.GetOrAdd(instance.Instance, static (address, self) => new Instance(self._createChannel(address)), this);
        if (target.UnsupportedUntil is { } until && _timeProvider.GetUtcNow() < until)
        {
            return DownstreamRateAnswer.Unsupported;
        }

        var headers = _token is null ? null : new Metadata { { CiceroMetadataKeys.RateExchangeToken, _token } };
        GetAdmissionRatesResponse response;
        try
        {
            response = await target.Client.GetAdmissionRatesAsync(new GetAdmissionRatesRequest { Caller = caller }, headers, cancellationToken: cancellationToken).ConfigureAwait(false);
        }
        catch (RpcException ex) when (ex.StatusCode == StatusCode.Unimplemented)
        {
            target.Failures = 0;
            if (target.UnsupportedUntil is null)
            {
                Log.Unsupported(_logger, instance.Service, instance.Instance, UnsupportedRetryInterval);
            }

            target.UnsupportedUntil = _timeProvider.GetUtcNow() + UnsupportedRetryInterval;
            return DownstreamRateAnswer.Unsupported;
        }
        catch (Exception ex)
        {
            // Logged on the first failure only: a silent instance is asked every interval.
            if (target.Failures++ == 0)
            {
                CiceroLog.ExchangeFailed(_logger, instance.Service, instance.Instance, ex is RpcException rpc ? $"{rpc.StatusCode}: {rpc.Status.Detail}" : ex.GetType().Name);
            }

            throw;
        }

        if (target.Failures > 0)
        {
            CiceroLog.ExchangeRecovered(_logger, instance.Service, instance.Instance, target.Failures);
            target.Failures = 0;
        }

        target.UnsupportedUntil = null;
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
        foreach (var instance in _instances.Values)
        {
            instance.Channel.Dispose();
        }
    }

    private sealed class Instance(GrpcChannel channel)
    {
        public GrpcChannel Channel { get; } = channel;

        public Protocol.RateExchange.RateExchangeClient Client { get; } = new(channel);

        public DateTimeOffset? UnsupportedUntil { get; set; }

        /// <summary>Gets or sets the failed queries since the last answer (one query at a time per instance).</summary>
        public int Failures { get; set; }
    }

    private static partial class Log
    {
        [LoggerMessage(EventId = 1, Level = LogLevel.Warning, Message = "Downstream service '{Service}' instance {Instance} has no Cicero rate exchange (UNIMPLEMENTED): it limits no rates and is asked again every {RetryInterval}.")]
        public static partial void Unsupported(ILogger logger, string service, string instance, TimeSpan retryInterval);
    }
}
