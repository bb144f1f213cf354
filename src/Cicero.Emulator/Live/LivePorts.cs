// SPDX-License-Identifier: Apache-2.0

using System.Net;
using Cicero.Grpc.RateExchange;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace Cicero.Emulator.Live;

/// <summary>
/// Where a live instance with an address listens and asks its callees for rates: on the address's port by default;
/// with <see cref="LiveRunnerOptions.ListenPortOffset"/> above it (a proxy holds the address); with
/// <see cref="LiveRunnerOptions.RateExchangePortOffset"/> rate exchange on a port of its own, so a firewall rule can cut
/// it alone. Instance ids stay the addresses either way.
/// </summary>
/// <param name="ListenOffset">How far above the address's port the instance listens.</param>
/// <param name="RateExchangeOffset">The rate-exchange port's offset above the address's port, or null for the address itself.</param>
internal sealed record LivePorts(int ListenOffset, int? RateExchangeOffset)
{
    /// <summary>Everything on the address's port.</summary>
    public static readonly LivePorts Default = new(0, null);

    /// <summary>The ports of <paramref name="options"/>.</summary>
    public static LivePorts From(LiveRunnerOptions options) => new(options.ListenPortOffset, options.RateExchangePortOffset);

    /// <summary>Listens on the instance's port (an ephemeral one without an address) and on its rate-exchange port.</summary>
    public void Listen(KestrelServerOptions kestrel, IPAddress ip, Uri? address)
    {
        kestrel.Listen(ip, address is null ? 0 : address.Port + ListenOffset, static o => o.Protocols = HttpProtocols.Http2);
        if (address is not null && RateExchangeOffset is { } offset)
        {
            kestrel.Listen(ip, address.Port + offset, static o => o.Protocols = HttpProtocols.Http2);
        }
    }

    /// <summary>With a rate-exchange port, asks callees there; registered before <c>AddCicero</c>, whose own it replaces.</summary>
    public void AddRateSource(IServiceCollection services)
    {
        if (RateExchangeOffset is not { } offset)
        {
            return;
        }

        services.AddSingleton(sp => new GrpcDownstreamRateSource(
            sharedToken: null,
            address => GrpcChannel.ForAddress(new UriBuilder(address) { Port = new Uri(address).Port + offset }.Uri, new GrpcChannelOptions
            {
                LoggerFactory = sp.GetService<ILoggerFactory>(),
            }),
            sp.GetService<ILogger<GrpcDownstreamRateSource>>()));
    }
}
