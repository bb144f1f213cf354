// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>The resource kinds a scenario may declare (see <see cref="ResourceSpec"/>).</summary>
public static class ResourceKinds
{
    /// <summary>Held by every request handler at the instance for its whole duration.</summary>
    public const string ThreadPool = "thread-pool";

    /// <summary>Held by every outgoing call from the instance until its reply or timeout.</summary>
    public const string ConnectionPool = "connection-pool";

    /// <summary>An emulated disk, used by stages that name it (the dissertation's BS disk).</summary>
    public const string Disk = "disk";

    /// <summary>Emulated computation, used by stages that name it (the dissertation's PS compute stage).</summary>
    public const string Compute = "compute";

    /// <summary>Gets every kind.</summary>
    public static IReadOnlyList<string> All { get; } = [ThreadPool, ConnectionPool, Disk, Compute];
}
