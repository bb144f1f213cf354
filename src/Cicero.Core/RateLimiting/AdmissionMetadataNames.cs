// SPDX-License-Identifier: Apache-2.0

using System.Threading.RateLimiting;

namespace Cicero.RateLimiting;

/// <summary>
/// The <see cref="RateLimitLease"/> metadata that Cicero's rate limiters attach to a refused lease, next to the standard
/// <see cref="MetadataName.RetryAfter"/> and <see cref="MetadataName.ReasonPhrase"/>.
/// </summary>
public static class AdmissionMetadataNames
{
    /// <summary>Why admission refused the request (never <see cref="DropReason.None"/> on a refused lease).</summary>
    public static MetadataName<DropReason> DropReason { get; } = MetadataName.Create<DropReason>("CICERO_DROP_REASON");
}
