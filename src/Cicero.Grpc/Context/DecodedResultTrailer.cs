// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.ReplicaSelection;

namespace Cicero.Grpc.Context;

/// <summary>
/// A call's <see cref="CiceroMetadataKeys.Result"/> trailer decoded once, for everything the client side learns from it:
/// the request's progress and amplification (the interceptor) and the replica's feedback (the balancer).
/// </summary>
/// <param name="IsValid">Whether the trailer was present and well formed; every other field is zero when not.</param>
/// <param name="Progress">The callee's progress counters b.</param>
/// <param name="QueueSize">The callee's queue size q.</param>
/// <param name="ServiceSeconds">The callee's service time μ⁻¹, in seconds.</param>
/// <param name="Background">The callee's background activity.</param>
/// <param name="Instance">The callee's instance id (ASCII), a slice of the trailer's bytes; empty when withheld.</param>
internal readonly record struct DecodedResultTrailer(
    bool IsValid, ProgressDelta Progress, double QueueSize, double ServiceSeconds, double Background, ReadOnlyMemory<byte> Instance)
{
    /// <summary>Decodes <paramref name="bytes"/>, the trailer's value, or nothing.</summary>
    public static DecodedResultTrailer Decode(byte[]? bytes)
    {
        if (bytes is null
            || !TrailerCodec.TryDecode(bytes, out var progress, out var queueSize, out var serviceSeconds, out var background, out var instance))
        {
            return default;
        }

        // The instance id is the trailer's tail.
        return new DecodedResultTrailer(true, progress, queueSize, serviceSeconds, background, bytes.AsMemory(bytes.Length - instance.Length));
    }

    /// <summary>The replica feedback this trailer gives for a call that took <paramref name="responseTime"/>.</summary>
    public ReplicaFeedback Feedback(TimeSpan responseTime) =>
        new(responseTime, QueueSize, TimeSpan.FromSeconds(ServiceSeconds), Background, failed: false);
}
