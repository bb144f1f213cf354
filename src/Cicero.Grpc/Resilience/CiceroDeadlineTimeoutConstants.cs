// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Resilience;

/// <summary>Names used by the Cicero deadline timeout strategy.</summary>
public static class CiceroDeadlineTimeoutConstants
{
    /// <summary>The default <see cref="Polly.ResilienceStrategyOptions.Name"/> of the deadline timeout strategy.</summary>
    public const string DefaultName = "CiceroDeadlineTimeout";

    /// <summary>
    /// The resilience event reported (severity Error) when an execution is rejected because its budget was already
    /// spent. It is Polly's own timeout event name, so timeout dashboards count these too.
    /// </summary>
    public const string OnTimeoutEvent = "OnTimeout";
}
