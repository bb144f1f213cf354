// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;

namespace Cicero.RateLimiting;

/// <summary>
/// The lease of Cicero's rate limiters. Admitted leases are one shared instance (nothing to release: admission takes a
/// token, it does not hold a permit); refused ones carry the drop reason, a reason phrase and, where waiting helps,
/// a retry-after.
/// </summary>
internal sealed class AdmissionLease : RateLimitLease
{
    private static readonly string[] RefusedNames = [MetadataName.ReasonPhrase.Name, AdmissionMetadataNames.DropReason.Name];
    private static readonly string[] RefusedNamesWithRetry = [MetadataName.ReasonPhrase.Name, AdmissionMetadataNames.DropReason.Name, MetadataName.RetryAfter.Name];
    private static readonly AdmissionLease[] RefusedWithoutRetry = CreateRefused();

    private readonly DropReason _reason;
    private readonly TimeSpan? _retryAfter;

    private AdmissionLease(DropReason reason, TimeSpan? retryAfter)
    {
        _reason = reason;
        _retryAfter = retryAfter;
    }

    public static AdmissionLease Acquired { get; } = new(DropReason.None, null);

    public override bool IsAcquired => _reason == DropReason.None;

    public override IEnumerable<string> MetadataNames =>
        IsAcquired ? [] : _retryAfter is null ? RefusedNames : RefusedNamesWithRetry;

    public static AdmissionLease Refused(DropReason reason, TimeSpan? retryAfter)
    {
        if (retryAfter is null && (uint)reason < (uint)RefusedWithoutRetry.Length)
        {
            return RefusedWithoutRetry[(int)reason];
        }

        return new AdmissionLease(reason, retryAfter);
    }

    public override bool TryGetMetadata(string metadataName, out object? metadata)
    {
        metadata = null;
        if (IsAcquired)
        {
            return false;
        }

        if (metadataName == AdmissionMetadataNames.DropReason.Name)
        {
            metadata = _reason;
        }
        else if (metadataName == MetadataName.ReasonPhrase.Name)
        {
            metadata = ReasonPhrase(_reason);
        }
        else if (metadataName == MetadataName.RetryAfter.Name && _retryAfter is { } retryAfter)
        {
            metadata = retryAfter;
        }

        return metadata is not null;
    }

    private static string ReasonPhrase(DropReason reason) => reason switch
    {
        DropReason.RateLimited => "Cicero: the workflow's admission rate is exhausted and its queue is full.",
        DropReason.DeadlineInfeasible => "Cicero: the request cannot finish before its deadline.",
        DropReason.DeadlineExpired => "Cicero: the request's deadline had passed on arrival.",
        DropReason.QueueFull => "Cicero: a resource's wait queue is full.",
        DropReason.DownstreamDropped => "Cicero: a downstream service dropped the request.",
        _ => $"Cicero: dropped by policy ({reason}).",
    };

    private static AdmissionLease[] CreateRefused()
    {
        var values = Enum.GetValues<DropReason>();
        var leases = new AdmissionLease[values.Max(v => (int)v) + 1];
        for (var i = 0; i < leases.Length; i++)
        {
            leases[i] = new AdmissionLease((DropReason)i, null);
        }

        return leases;
    }
}
