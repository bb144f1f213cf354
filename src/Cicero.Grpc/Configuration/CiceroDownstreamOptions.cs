// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.ReplicaSelection;

namespace Cicero.Grpc.Configuration;

/// <summary>A downstream service: its instances and how calls are balanced over them.</summary>
public sealed class CiceroDownstreamOptions
{
    /// <summary>Gets or sets the service's name (e.g. <c>storage</c>); required and unique.</summary>
    public string Name { get; set; } = string.Empty;

    /// <summary>Gets the instances' addresses (e.g. <c>http://10.0.0.7:5000</c>); at least one.</summary>
    public IList<string> Addresses { get; } = [];

    /// <summary>Gets or sets the load-balancing policy: <c>round_robin</c> or any replica selector (<c>c3</c> by default).</summary>
    public string LoadBalancingPolicy { get; set; } = ReplicaSelectorNames.C3;

    /// <summary>Gets or sets a value indicating whether this process pulls the service's admission rates.</summary>
    public bool ExchangeRates { get; set; } = true;

    /// <summary>Copies these options and their address list, for the snapshot Cicero runs on.</summary>
    internal CiceroDownstreamOptions Copy()
    {
        var copy = new CiceroDownstreamOptions { Name = Name, LoadBalancingPolicy = LoadBalancingPolicy, ExchangeRates = ExchangeRates };
        foreach (var address in Addresses)
        {
            copy.Addresses.Add(address);
        }

        return copy;
    }
}
