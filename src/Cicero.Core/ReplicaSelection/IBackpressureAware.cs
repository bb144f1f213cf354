// SPDX-License-Identifier: Apache-2.0

namespace Cicero.ReplicaSelection;

/// <summary>
/// Implemented by selectors that can answer <see cref="ReplicaChoice.Backlog"/> (C3's rate limiters): tells the
/// replica-client engine when to try the backlog again.
/// </summary>
public interface IBackpressureAware
{
    /// <summary>Gets how long until some live replica of the group can take a request.</summary>
    /// <param name="replicas">The group.</param>
    /// <param name="now">The current timestamp.</param>
    /// <returns>The wait in timestamps, or <see langword="null"/> if no replica will become available by itself.</returns>
    long? TimeUntilAvailable(ReadOnlySpan<ReplicaState> replicas, long now);
}
