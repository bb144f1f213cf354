// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Resilience;

/// <summary>Names used by the Cicero admission strategy.</summary>
public static class CiceroAdmissionConstants
{
    /// <summary>The default <see cref="Polly.ResilienceStrategyOptions.Name"/> of the admission strategy.</summary>
    public const string DefaultName = "CiceroAdmission";

    /// <summary>The resilience event reported (severity Error) when admission rejects an execution.</summary>
    public const string OnRejectedEvent = "OnCiceroAdmissionRejected";
}
