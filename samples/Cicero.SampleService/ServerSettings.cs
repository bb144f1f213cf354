// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Scheduling;

namespace Cicero.SampleService;

/// <summary>What the command line sets on a service of the sample.</summary>
public sealed record ServerSettings
{
    /// <summary>Gets the port on 127.0.0.1 the service listens on; 0 picks a free one.</summary>
    public int Port { get; init; } = 5080;

    /// <summary>Gets a value indicating whether only services inside the mesh call this one (<c>IsEntryPoint = false</c>).</summary>
    public bool Internal { get; init; }

    /// <summary>Gets the token that protects the rate-exchange endpoint and that this process presents to its downstreams.</summary>
    public string? RateExchangeToken { get; init; }

    /// <summary>Gets the catalog's database connections.</summary>
    public int DatabaseCapacity { get; init; } = 4;

    /// <summary>Gets the scheduler that orders waiters for a database connection.</summary>
    public string DatabaseScheduler { get; init; } = SubtaskSchedulerNames.EarliestDeadlineFirst;

    /// <summary>Gets the catalog instances the storefront calls.</summary>
    public IReadOnlyList<string> CatalogAddresses { get; init; } = ["http://127.0.0.1:5080"];

    /// <summary>
    /// Gets a value indicating whether the storefront builds its catalog channel by hand (<c>GrpcChannel</c> with
    /// <c>CiceroClientInterceptor</c>) rather than with <c>AddGrpcClient</c>.
    /// </summary>
    public bool ManualChannel { get; init; }

    /// <summary>Gets a value indicating whether to log only warnings and errors.</summary>
    public bool Quiet { get; init; }
}
