// SPDX-License-Identifier: Apache-2.0


namespace Cicero.Resources;

/// <summary>
/// A permit of a <see cref="ResourceSemaphore"/>, or the reason none was granted. Dispose it to release the permit;
/// the time it was held is the sub-task's service time.
/// </summary>
/// <remarks>
/// A struct, so acquiring allocates nothing. It carries a version token, so disposing it (or a copy) twice releases
/// the permit once.
/// </remarks>
public readonly struct SubtaskLease : IDisposable
{
    private readonly ResourceSemaphore? _owner;
    private readonly int _grant;
    private readonly int _version;
    private readonly DropReason _reason;

    internal SubtaskLease(ResourceSemaphore owner, int grant, int version)
    {
        _owner = owner;
        _grant = grant;
        _version = version;
        _reason = DropReason.None;
    }

    private SubtaskLease(DropReason reason)
    {
        _reason = reason;
    }

    /// <summary>Gets a value indicating whether a permit was granted.</summary>
    public bool IsAcquired => _owner is not null;

    /// <summary>Gets why no permit was granted; <see cref="DropReason.None"/> when one was.</summary>
    public DropReason RejectionReason => _reason;

    /// <summary>Releases the permit, if one was granted and not yet released.</summary>
    public void Dispose() => _owner?.Release(_grant, _version);

    internal static SubtaskLease Rejected(DropReason reason) => new(reason);
}
