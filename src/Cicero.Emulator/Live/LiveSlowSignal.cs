// SPDX-License-Identifier: Apache-2.0

using System.Runtime.InteropServices;

namespace Cicero.Emulator.Live;

/// <summary>
/// Makes a hosting process's instances slow from outside (<see cref="LiveRunnerOptions.SlowFactorOnSignal"/>):
/// <c>SIGUSR1</c> multiplies their service times by the factor, <c>SIGUSR2</c> restores them. The in-process
/// <c>slow</c> fault is timed from the driver's start, which an instance in another process does not know.
/// </summary>
internal sealed class LiveSlowSignal : IDisposable
{
    // Linux's numbers; PosixSignalRegistration takes raw values cast to PosixSignal.
    private const int SigUsr1 = 10;
    private const int SigUsr2 = 12;

    private readonly PosixSignalRegistration _slow;
    private readonly PosixSignalRegistration _restore;

    private LiveSlowSignal(IReadOnlyList<LiveInstance?[]> instances, double factor)
    {
        _slow = PosixSignalRegistration.Create((PosixSignal)SigUsr1, context => Set(context, instances, factor));
        _restore = PosixSignalRegistration.Create((PosixSignal)SigUsr2, context => Set(context, instances, 1));
    }

    /// <summary>Registers the signals when <paramref name="factor"/> is set and the platform has them; otherwise null.</summary>
    public static LiveSlowSignal? Register(IReadOnlyList<LiveInstance?[]> instances, double? factor) =>
        factor is { } value && OperatingSystem.IsLinux() ? new LiveSlowSignal(instances, value) : null;

    /// <inheritdoc/>
    public void Dispose()
    {
        _slow.Dispose();
        _restore.Dispose();
    }

    private static void Set(PosixSignalContext context, IReadOnlyList<LiveInstance?[]> instances, double factor)
    {
        context.Cancel = true;
        foreach (var instance in instances.SelectMany(static tier => tier))
        {
            instance?.FaultFactor = factor;
        }
    }
}
