// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Logging;
using Cicero.Runtime;
using Grpc.AspNetCore.Server;
using Microsoft.AspNetCore.RateLimiting;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace Cicero.Grpc.Hosting;

/// <summary>
/// Starts the rate-adaptation loop once the server listens (so the instance id is known): tells the controller which
/// downstream instances to poll, then runs Algorithm 3 every interval with per-query timeouts. Logs the configuration
/// it starts with, warns when no gRPC endpoint is there to intercept, and watches the downstream services' status.
/// </summary>
internal sealed class CiceroHostedService(
    CiceroRuntime runtime,
    CiceroGrpcOptions options,
    CiceroInstance instance,
    IHostApplicationLifetime lifetime,
    IServiceProvider services) : IHostedService, IDisposable
{
    private readonly ILogger _logger = services.GetService<ILoggerFactory>()?.CreateLogger("Cicero.Grpc.Hosting") ?? NullLogger.Instance;
    private CancellationTokenRegistration _started;
    private DownstreamStatusMonitor? _monitor;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _started = lifetime.ApplicationStarted.Register(Begin);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _started.Dispose();
        _monitor?.Dispose();
        return Task.CompletedTask;
    }

    public void Dispose() => _monitor?.Dispose();

    private void Begin()
    {
        var exchanged = new List<string>();
        foreach (var downstream in options.Downstreams)
        {
            if (downstream.ExchangeRates)
            {
                runtime.RateAdaptation.SetDownstreamInstances(downstream.Name, downstream.Addresses.Select(a => InstanceIds.FromAddress(new Uri(a))));
                exchanged.Add(downstream.Name);
            }
        }

        LogConfiguration();
        if (!options.RateExchange.RunControlLoop)
        {
            return;
        }

        runtime.RateAdaptation.Start();
        if (exchanged.Count > 0 && _logger.IsEnabled(LogLevel.Information))
        {
            _monitor = new DownstreamStatusMonitor(runtime.RateAdaptation, exchanged, options.RateLimitPolicy, _logger);
            _monitor.Start(runtime.TimeProvider, runtime.Options.RateAdaptation.Interval);
        }
    }

    private void LogConfiguration()
    {
        if (_logger.IsEnabled(LogLevel.Information))
        {
            var resources = string.Join(", ", options.Resources.Select(r => $"{r.Name}: {r.Capacity} permits, {r.Scheduler}, queue {r.MaxQueueLength}"));
            var downstreams = string.Join(
                ", ", options.Downstreams.Select(d => $"{d.Name}: {d.Addresses.Count} instances, {d.LoadBalancingPolicy}{(d.ExchangeRates ? string.Empty : ", no rate exchange")}"));
            CiceroLog.Started(
                _logger,
                options.ServiceName,
                instance.Id,
                options.IsEntryPoint,
                options.RateLimitPolicy,
                options.DropPolicy,
                resources,
                downstreams,
                options.RateExchange.RunControlLoop ? "on" : "off",
                runtime.Options.RateAdaptation.Interval);
        }

        if (!HasInterceptedEndpoint())
        {
            CiceroLog.NoInterceptedEndpoint(_logger);
        }
    }

    /// <summary>
    /// Whether any mapped gRPC method belongs to a service the server interceptor does not pass through, or any endpoint
    /// uses rate limiting (where <c>AddCiceroPolicy</c> admits HTTP requests through Cicero).
    /// </summary>
    private bool HasInterceptedEndpoint()
    {
        var endpoints = services.GetService<EndpointDataSource>()?.Endpoints ?? [];
        foreach (var endpoint in endpoints)
        {
            if (endpoint.Metadata.GetMetadata<EnableRateLimitingAttribute>() is not null)
            {
                return true;
            }

            var service = endpoint.Metadata.GetMetadata<GrpcMethodMetadata>()?.Method.ServiceName;
            if (service is not null
                && service != RateExchange.Protocol.RateExchange.Descriptor.FullName
                && !options.ExemptServices.Contains(service, StringComparer.Ordinal))
            {
                return true;
            }
        }

        return false;
    }
}
