// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Context;

/// <summary>This process's identity: its service name and instance id (configured, or its first listening address).</summary>
public sealed class CiceroInstance
{
    private readonly IServiceProvider _services;
    private string? _id;

    /// <summary>Creates the identity.</summary>
    /// <param name="options">The options.</param>
    /// <param name="services">Where the server's addresses are found when no id is configured.</param>
    public CiceroInstance(CiceroGrpcOptions options, IServiceProvider services)
    {
        ArgumentNullException.ThrowIfNull(options);
        ServiceName = options.ServiceName;
        _id = options.InstanceId;
        _services = services;
    }

    /// <summary>Gets the service's name.</summary>
    public string ServiceName { get; }

    /// <summary>Gets the instance's id.</summary>
    /// <exception cref="InvalidOperationException">No id is configured and the server has no address yet.</exception>
    public string Id => _id ??= Resolve();

    private string Resolve()
    {
        var addresses = _services.GetService<IServer>()?.Features.Get<IServerAddressesFeature>()?.Addresses;
        var first = addresses?.FirstOrDefault()
            ?? throw new InvalidOperationException("CiceroGrpcOptions.InstanceId is not set and the server has no listening address yet.");
        var normalized = first.Replace("://[::]", "://127.0.0.1", StringComparison.Ordinal)
            .Replace("://0.0.0.0", "://127.0.0.1", StringComparison.Ordinal)
            .Replace("://+", "://127.0.0.1", StringComparison.Ordinal)
            .Replace("://*", "://127.0.0.1", StringComparison.Ordinal);
        return InstanceIds.FromAddress(new Uri(normalized));
    }
}
