// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>One instance of a downstream service, as a caller addresses it.</summary>
/// <param name="Service">The service name, such as "ps".</param>
/// <param name="Instance">The instance's address or id, unique within the service.</param>
public readonly record struct DownstreamInstance(string Service, string Instance)
{
    /// <inheritdoc />
    public override string ToString() => $"{Service}/{Instance}";
}
