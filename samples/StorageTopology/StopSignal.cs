// SPDX-License-Identifier: Apache-2.0

using System.Runtime.InteropServices;

namespace Cicero.StorageTopology;

/// <summary>
/// Turns the first Ctrl-C (SIGINT) or SIGTERM into a cancellation the runs obey (they stop within a few seconds and the
/// report is written, marked partial); a second one ends the process at once, as a user pressing Ctrl-C twice expects.
/// </summary>
internal sealed class StopSignal : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly PosixSignalRegistration _interrupt;
    private readonly PosixSignalRegistration _terminate;
    private long _stoppedAt;
    private int _signals;

    public StopSignal()
    {
        _interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Handle);
        _terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Handle);
    }

    /// <summary>Gets the token cancelled by the first signal.</summary>
    public CancellationToken Token => _stop.Token;

    /// <summary>Gets the signal's name, once one arrived.</summary>
    public string? Signal { get; private set; }

    /// <summary>Gets the timestamp (<see cref="TimeProvider.System"/>) of the first signal.</summary>
    public long StoppedAt => Interlocked.Read(ref _stoppedAt);

    public void Dispose()
    {
        _interrupt.Dispose();
        _terminate.Dispose();
        _stop.Dispose();
    }

    private void Handle(PosixSignalContext context)
    {
        if (Interlocked.Increment(ref _signals) > 1)
        {
            // The second signal: let the runtime end the process.
            return;
        }

        context.Cancel = true;
        Signal = context.Signal == PosixSignal.SIGTERM ? "SIGTERM" : "Ctrl-C (SIGINT)";
        Interlocked.Exchange(ref _stoppedAt, TimeProvider.System.GetTimestamp());
        _stop.Cancel();
    }
}
