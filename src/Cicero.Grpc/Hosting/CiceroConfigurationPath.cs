// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Hosting;

/// <summary>
/// Where Cicero's options came from in configuration (e.g. <c>Services:Cicero</c>), so validation messages name each
/// setting by the path a user would edit. <c>Cicero</c> when options are set in code.
/// </summary>
/// <param name="Path">The section's path; empty for the configuration root.</param>
internal sealed record CiceroConfigurationPath(string Path)
{
    public static CiceroConfigurationPath Default { get; } = new("Cicero");

    /// <summary>The path of a setting under the section.</summary>
    public string Of(string setting) => Path.Length == 0 ? setting : $"{Path}:{setting}";
}
