// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Runtime;
using Microsoft.Extensions.Hosting;

namespace Cicero.Grpc.Hosting;

/// <summary>
/// Starts the rate-adaptation loop once the server listens (so the instance id is known): tells the controller which
/// downstream instances to poll, then runs Algorithm 3 every interval with per-query timeouts.
/// </summary>
internal sealed class CiceroHostedService(
    CiceroRuntime runtime,
    CiceroGrpcOptions options,
    CiceroInstance instance,
    IHostApplicationLifetime lifetime) : IHostedService
{
    private CancellationTokenRegistration _started;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        _started = lifetime.ApplicationStarted.Register(Begin);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        _started.Dispose();
        return Task.CompletedTask;
    }

    private void Begin()
    {
        runtime.Options.RateAdaptation.ProcessId = instance.Id;
        foreach (var downstream in options.Downstreams)
        {
            if (downstream.ExchangeRates)
            {
                runtime.RateAdaptation.SetDownstreamInstances(downstream.Name, downstream.Addresses.Select(a => InstanceIds.FromAddress(new Uri(a))));
            }
        }

        if (options.RateExchange.RunControlLoop)
        {
            runtime.RateAdaptation.Start();
        }
    }
}
