// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>
/// What one probe server does and saw: its extra service time, its call counts, and the signals a test awaits instead
/// of sleeping (a held call started, a held call was cancelled, a guarded call got its permit).
/// </summary>
public sealed class ProbeState
{
    private int _calls;
    private int _inFlight;
    private int _maxInFlight;

    /// <summary>Gets or sets the extra time every echo takes at this server.</summary>
    public TimeSpan ExtraDelay { get; init; }

    /// <summary>Gets the number of echo calls the handler ran.</summary>
    public int Calls => Volatile.Read(ref _calls);

    /// <summary>Gets the most echo calls the handler ran at once.</summary>
    public int MaxInFlight => Volatile.Read(ref _maxInFlight);

    /// <summary>Gets a signal released each time a held call starts.</summary>
    public SemaphoreSlim HoldStarted { get; } = new(0);

    /// <summary>Gets a signal released each time a held call sees its cancellation.</summary>
    public SemaphoreSlim HoldCancelled { get; } = new(0);

    /// <summary>Gets a signal released each time a guarded call holds the resource's permit.</summary>
    public SemaphoreSlim GuardedAcquired { get; } = new(0);

    /// <summary>Gets the gate that guarded calls wait at while they hold the permit.</summary>
    public TaskCompletionSource ReleaseGuarded { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Forgets the calls counted so far (after a warm-up).</summary>
    public void ResetCalls()
    {
        Interlocked.Exchange(ref _calls, 0);
        Interlocked.Exchange(ref _maxInFlight, 0);
    }

    /// <summary>Counts a call in.</summary>
    public void Enter()
    {
        Interlocked.Increment(ref _calls);
        var now = Interlocked.Increment(ref _inFlight);
        int seen;
        while (now > (seen = Volatile.Read(ref _maxInFlight)) && Interlocked.CompareExchange(ref _maxInFlight, now, seen) != seen)
        {
        }
    }

    /// <summary>Counts a call out.</summary>
    public void Exit() => Interlocked.Decrement(ref _inFlight);
}
