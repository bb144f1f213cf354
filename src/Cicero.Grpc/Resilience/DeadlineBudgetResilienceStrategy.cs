// SPDX-License-Identifier: Apache-2.0

using Polly;
using Polly.Telemetry;
using Polly.Timeout;

namespace Cicero.Grpc.Resilience;

/// <summary>
/// Rejects an execution whose deadline budget is already spent with Polly's <see cref="TimeoutRejectedException"/>,
/// without running it. It sits just outside Polly's timeout strategy, which handles every budget that is left.
/// </summary>
internal sealed class DeadlineBudgetResilienceStrategy : ResilienceStrategy
{
    private readonly DeadlineBudget _budget;
    private readonly ResilienceStrategyTelemetry _telemetry;
    private readonly Func<OnTimeoutArguments, ValueTask>? _onTimeout;

    public DeadlineBudgetResilienceStrategy(DeadlineBudget budget, Func<OnTimeoutArguments, ValueTask>? onTimeout, ResilienceStrategyTelemetry telemetry)
    {
        _budget = budget;
        _telemetry = telemetry;
        _onTimeout = onTimeout;
    }

    protected override ValueTask<Outcome<TResult>> ExecuteCore<TResult, TState>(
        Func<ResilienceContext, TState, ValueTask<Outcome<TResult>>> callback,
        ResilienceContext context,
        TState state)
    {
        var remaining = _budget.GetRemaining(context);
        return remaining is { } spent && spent <= TimeSpan.Zero
            ? RejectAsync<TResult>(context, spent)
            : callback(context, state);
    }

    private async ValueTask<Outcome<TResult>> RejectAsync<TResult>(ResilienceContext context, TimeSpan remaining)
    {
        var args = new OnTimeoutArguments(context, TimeSpan.Zero);
        _telemetry.Report(new ResilienceEvent(ResilienceEventSeverity.Error, CiceroDeadlineTimeoutConstants.OnTimeoutEvent), context, args);
        if (_onTimeout is not null)
        {
            await _onTimeout(args).ConfigureAwait(context.ContinueOnCapturedContext);
        }

        var exception = new TimeoutRejectedException(
            $"The operation was not started: its request's deadline budget was spent ({remaining.Negate()} past the deadline).",
            TimeSpan.Zero);
        _telemetry.SetTelemetrySource(exception);
        return Outcome.FromException<TResult>(exception);
    }
}
