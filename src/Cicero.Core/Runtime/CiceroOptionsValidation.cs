// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Measurement;
using Cicero.RateAdaptation;

namespace Cicero.Runtime;

/// <summary>
/// The checks <see cref="CiceroRuntime"/> runs on its option objects, for hosts that bind them from configuration and
/// want to report every bad value at start-up with its own path (Cicero.Grpc's options validator does).
/// </summary>
public static class CiceroOptionsValidation
{
    /// <summary>Checks the measurement options.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentException">A value is out of range; the message and parameter name say which.</exception>
    public static void Validate(LocalModelOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
    }

    /// <summary>Checks the admission options.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentException">A value is out of range; the message and parameter name say which.</exception>
    public static void Validate(AdmissionOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
    }

    /// <summary>Checks the rate-adaptation options.</summary>
    /// <param name="options">The options.</param>
    /// <exception cref="ArgumentException">A value is out of range; the message and parameter name say which.</exception>
    public static void Validate(RateAdaptationOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
    }
}
