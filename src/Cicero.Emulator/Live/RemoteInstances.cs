// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;
using Grpc.Health.V1;
using Grpc.Net.Client;

namespace Cicero.Emulator.Live;

/// <summary>
/// Waits until instances hosted by other processes answer SERVING on the <c>grpc.health.v1</c> service every live
/// instance serves, so a driver started beside (or before) them offers no load to a server that is not up yet.
/// </summary>
internal static class RemoteInstances
{
    /// <summary>How long a driver waits for another process's instance to come up.</summary>
    public static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(50);

    /// <summary>Waits for every instance at <paramref name="addresses"/>.</summary>
    /// <param name="addresses">The instances, by name.</param>
    /// <param name="cancellationToken">Stops waiting.</param>
    /// <exception cref="InvalidOperationException">An instance did not report SERVING within <see cref="StartTimeout"/>.</exception>
    public static Task WaitUntilServingAsync(IEnumerable<(string Name, Uri Address)> addresses, CancellationToken cancellationToken) =>
        Task.WhenAll(addresses.Select(a => WaitAsync(a.Name, a.Address, cancellationToken)));

    private static async Task WaitAsync(string name, Uri address, CancellationToken cancellationToken)
    {
        using var channel = GrpcChannel.ForAddress(address, new GrpcChannelOptions
        {
            InitialReconnectBackoff = LiveChannels.InitialReconnectBackoff,
            MaxReconnectBackoff = LiveChannels.MaxReconnectBackoff,
        });
        var client = new Health.HealthClient(channel);
        var deadline = TimeProvider.System.GetUtcNow().UtcDateTime + StartTimeout;
        while (true)
        {
            // Wait for ready: a refused connection is retried with back-off until the deadline, not failed at once.
            var options = new CallOptions(deadline: deadline, cancellationToken: cancellationToken).WithWaitForReady();
            HealthCheckResponse.Types.ServingStatus status;
            try
            {
                status = (await client.CheckAsync(new HealthCheckRequest(), options).ConfigureAwait(false)).Status;
            }
            catch (RpcException ex) when (!cancellationToken.IsCancellationRequested)
            {
                throw new InvalidOperationException($"{name} at {address} did not report SERVING within {StartTimeout.TotalSeconds:0} s: {ex.Status.Detail}", ex);
            }

            if (status == HealthCheckResponse.Types.ServingStatus.Serving)
            {
                return;
            }

            // Up, but its process has not connected it to its callees yet (a moment after it starts listening).
            await Task.Delay(PollInterval, TimeProvider.System, cancellationToken).ConfigureAwait(false);
        }
    }
}
