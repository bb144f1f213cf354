// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;

namespace OpenTelemetry.Trace;

/// <summary>Registers Cicero's activity source with an OpenTelemetry <see cref="TracerProviderBuilder"/>.</summary>
public static class CiceroTracerProviderBuilderExtensions
{
    /// <summary>Collects Cicero's spans: adds the activity source named <see cref="CiceroTelemetry.Name"/>.</summary>
    /// <param name="builder">The builder.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is <see langword="null"/>.</exception>
    public static TracerProviderBuilder AddCiceroInstrumentation(this TracerProviderBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder.AddSource(CiceroTelemetry.Name);
    }
}
