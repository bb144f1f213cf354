// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Resilience;

/// <summary>What the Cicero admission strategy does with an execution that carries no request context.</summary>
public enum MissingContextBehavior
{
    /// <summary>
    /// Run the operation without admission. Work Cicero does not know about (health checks, start-up calls) is not
    /// its to drop, and a pipeline shared by tracked and untracked callers keeps working.
    /// </summary>
    PassThrough = 0,

    /// <summary>
    /// Reject the execution with an <see cref="AdmissionRejectedException"/> whose reason is
    /// <see cref="DropReason.Policy"/>, for pipelines that must only ever run tracked work.
    /// </summary>
    Reject = 1,
}
