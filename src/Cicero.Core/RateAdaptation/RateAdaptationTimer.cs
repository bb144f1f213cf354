// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>
/// Runs <see cref="RateAdaptationController.RunOnceAsync"/> every interval on a timer of the injected clock: a tick
/// that finds the previous run still going is skipped and counted, and a run's failure is kept, not thrown, so the
/// loop outlives a faulty policy.
/// </summary>
internal sealed class RateAdaptationTimer(RateAdaptationController controller, TimeProvider timeProvider) : IDisposable
{
    private readonly Lock _lock = new();
    private ITimer? _timer;
    private CancellationTokenSource? _stopping;
    private int _running;
    private long _skippedTicks;

    /// <summary>Gets the number of ticks skipped because the previous run was still going.</summary>
    public long SkippedTicks => Interlocked.Read(ref _skippedTicks);

    /// <summary>Gets the last exception a run threw, if any; written by the loop alone.</summary>
    public Exception? LastError { get; private set; }

    /// <summary>Starts the timer.</summary>
    /// <exception cref="InvalidOperationException">Already started.</exception>
    public void Start(TimeSpan interval)
    {
        lock (_lock)
        {
            if (_timer is not null)
            {
                throw new InvalidOperationException("The rate adaptation loop is already running.");
            }

            _stopping = new CancellationTokenSource();
            _timer = timeProvider.CreateTimer(static state => ((RateAdaptationTimer)state!).OnTick(), this, interval, interval);
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        lock (_lock)
        {
            _timer?.Dispose();
            _timer = null;
            _stopping?.Cancel();
            _stopping?.Dispose();
            _stopping = null;
        }
    }

    private void OnTick()
    {
        if (Interlocked.CompareExchange(ref _running, 1, 0) != 0)
        {
            Interlocked.Increment(ref _skippedTicks);
            return;
        }

        _ = RunTickAsync(_stopping?.Token ?? CancellationToken.None);
    }

    private async Task RunTickAsync(CancellationToken cancellationToken)
    {
        try
        {
            await controller.RunOnceAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
        }
        catch (Exception ex)
        {
            // The loop must outlive a faulty policy; the error is kept for health checks.
            LastError = ex;
        }
        finally
        {
            Volatile.Write(ref _running, 0);
        }
    }
}
