// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;

namespace OpenTelemetry.Metrics;

/// <summary>Registers Cicero's meter with an OpenTelemetry <see cref="MeterProviderBuilder"/>.</summary>
public static class CiceroMeterProviderBuilderExtensions
{
    /// <summary>
    /// Collects Cicero's metrics: adds the meter named <see cref="CiceroTelemetry.Name"/> (admission, drops, queue
    /// lengths, resource waits, downstream status).
    /// </summary>
    /// <param name="builder">The builder.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is <see langword="null"/>.</exception>
    public static MeterProviderBuilder AddCiceroInstrumentation(this MeterProviderBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        return builder.AddMeter(CiceroTelemetry.Name);
    }
}
