// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>Per-call options: headers, deadline and cancellation.</summary>
/// <param name="Headers">Headers to send, or <see langword="null"/>.</param>
/// <param name="Deadline">The absolute deadline, or <see langword="null"/> for none.</param>
/// <param name="CancellationToken">Cancels the call.</param>
public readonly record struct CallOptions(Metadata? Headers = null, DateTimeOffset? Deadline = null, CancellationToken CancellationToken = default)
{
    /// <summary>Gets who the transport tells when the call ends (Cicero's client interceptor), or <see langword="null"/>.</summary>
    internal CallCompletionObserver? CompletionObserver { get; init; }
}
