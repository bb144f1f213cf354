// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Polly;
using Polly.Timeout;

namespace Cicero.Grpc.Resilience;

/// <summary>
/// Reads an execution's remaining deadline budget. Shared by the budget check and the timeout generator that one
/// <c>AddCiceroDeadlineTimeout</c> call adds, so both read the same clock.
/// </summary>
/// <remarks>
/// The clock is the pipeline's, known only when the pipeline is built, after the generator was handed to Polly's
/// timeout options; <see cref="Bind"/> sets it once at build time and refuses a second, different clock.
/// </remarks>
internal sealed class DeadlineBudget
{
    // CancellationTokenSource timers accept at most uint.MaxValue - 1 milliseconds (about 49.7 days).
    internal static readonly TimeSpan MaxTimeout = TimeSpan.FromMilliseconds(uint.MaxValue - 1.0);

    private readonly Func<ResilienceContext, RequestContext?>? _selector;
    private readonly TimeSpan _fallback;
    private TimeProvider? _timeProvider;

    public DeadlineBudget(CiceroDeadlineTimeoutStrategyOptions options)
    {
        _selector = options.RequestContextSelector;
        _fallback = options.FallbackTimeout ?? Timeout.InfiniteTimeSpan;
    }

    public void Bind(TimeProvider timeProvider)
    {
        var bound = Interlocked.CompareExchange(ref _timeProvider, timeProvider, null);
        if (bound is not null && !ReferenceEquals(bound, timeProvider))
        {
            throw new InvalidOperationException(
                "A Cicero deadline timeout was built into pipelines with different time providers; add it once per clock.");
        }
    }

    /// <summary>Gets the execution's remaining budget, or <see langword="null"/> when it has no request or no deadline.</summary>
    public TimeSpan? GetRemaining(ResilienceContext context) =>
        RequestContextResolver.Resolve(context, _selector)?.GetRemainingBudget(_timeProvider!);

    /// <summary>The <see cref="TimeoutStrategyOptions.TimeoutGenerator"/>: the remaining budget, else the fallback.</summary>
    public ValueTask<TimeSpan> GenerateTimeout(TimeoutGeneratorArguments args)
    {
        var timeout = GetRemaining(args.Context) switch
        {
            null => _fallback,

            // Spent between the budget check and here (a real clock moved): Polly reads zero as "no timeout", so ask
            // for the shortest one instead and let it fire at once.
            { } remaining when remaining <= TimeSpan.Zero => TimeSpan.FromTicks(1),
            { } remaining when remaining > MaxTimeout => MaxTimeout,
            { } remaining => remaining,
        };
        return new ValueTask<TimeSpan>(timeout);
    }
}
