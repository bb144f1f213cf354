// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Admission;

/// <summary>
/// Decides, as a request arrives at its workflow's rate limiter and again when a queued request's turn comes (then with
/// nothing ahead of it), whether to drop it early.
/// </summary>
/// <remarks>
/// Called under the admission controller's lock with the current timestamp: implementations must be fast, must not
/// block, read a clock or do I/O, and are single-threaded by contract.
/// </remarks>
public interface IDropPolicy
{
    /// <summary>Evaluates an arriving request.</summary>
    /// <param name="candidate">The request and the limiter's state.</param>
    /// <param name="now">The current timestamp (also in <paramref name="candidate"/>).</param>
    /// <returns>Admit, or drop with a reason.</returns>
    DropDecision Evaluate(in AdmissionCandidate candidate, long now);
}
