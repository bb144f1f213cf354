// SPDX-License-Identifier: Apache-2.0

using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Logging;

/// <summary>
/// Every log message of Cicero's hosting, source-generated. Event ids are stable (documented in
/// docs/observability.md): 1 is the rate source's UNIMPLEMENTED message; 100-199 hosting, 200-299 rate exchange,
/// 300-399 admission.
/// </summary>
internal static partial class CiceroLog
{
    [LoggerMessage(EventId = 100, Level = LogLevel.Information, Message =
        "Cicero started: service '{Service}', instance {Instance}, entry point {IsEntryPoint}; rate-limit policy '{RateLimitPolicy}', drop policy '{DropPolicy}'; resources [{Resources}]; downstream services [{Downstreams}]; control loop {ControlLoop} every {Interval}.")]
    public static partial void Started(
        ILogger logger, string service, string instance, bool isEntryPoint, string rateLimitPolicy, string dropPolicy, string resources, string downstreams, string controlLoop, TimeSpan interval);

    [LoggerMessage(EventId = 101, Level = LogLevel.Warning, Message =
        "Cicero is configured (AddCicero) but no gRPC service endpoint is mapped with MapGrpcService<T>(), so its server interceptor admits no call. Map the services, or admit HTTP endpoints with AddRateLimiter(o => o.AddCiceroPolicy(...)).")]
    public static partial void NoInterceptedEndpoint(ILogger logger);

    [LoggerMessage(EventId = 200, Level = LogLevel.Warning, Message =
        "Rate exchange with downstream service '{Service}' instance {Instance} failed ({Error}); its last good answer, if any, is held until the hold time runs out. Further failures are not logged until it recovers.")]
    public static partial void ExchangeFailed(ILogger logger, string service, string instance, string error);

    [LoggerMessage(EventId = 201, Level = LogLevel.Information, Message =
        "Rate exchange with downstream service '{Service}' instance {Instance} recovered after {Failures} failed queries.")]
    public static partial void ExchangeRecovered(ILogger logger, string service, string instance, int failures);

    [LoggerMessage(EventId = 202, Level = LogLevel.Warning, Message =
        "Downstream service '{Service}': some instances are silent; their last good answers are held (status {Previous} -> Holding).")]
    public static partial void DownstreamHolding(ILogger logger, string service, string previous);

    [LoggerMessage(EventId = 203, Level = LogLevel.Warning, Message =
        "Downstream service '{Service}' has no usable rate answer (status {Previous} -> {Status}): its rates no longer constrain this service, which falls back to its local rate-limit policy '{Policy}'.")]
    public static partial void FellBackToLocalPolicy(ILogger logger, string service, string previous, string status, string policy);

    [LoggerMessage(EventId = 204, Level = LogLevel.Information, Message =
        "Downstream service '{Service}' answers again (status {Previous} -> Fresh): its rates constrain this service again.")]
    public static partial void DownstreamRecovered(ILogger logger, string service, string previous);

    [LoggerMessage(EventId = 205, Level = LogLevel.Warning, Message =
        "The rate-adaptation step failed; rates stay as they were until a step succeeds.")]
    public static partial void StepFailed(ILogger logger, Exception error);

    [LoggerMessage(EventId = 300, Level = LogLevel.Warning, Message =
        "Cicero dropped a call to {Method} at '{Service}': {Reason}. {Suppressed} more drops since the previous drop message (at most one per {Interval}).")]
    public static partial void Dropped(ILogger logger, string method, string service, string reason, long suppressed, TimeSpan interval);
}
