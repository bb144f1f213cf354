// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;
using Polly;

namespace Cicero.Grpc.Resilience;

/// <summary>
/// Thrown (or returned as the outcome) when Cicero's admission strategy rejects an execution. It derives from Polly's
/// <see cref="ExecutionRejectedException"/>, so handling written for Polly's own rejections (rate limiter, circuit
/// breaker, timeout) catches it too.
/// </summary>
public sealed class AdmissionRejectedException : ExecutionRejectedException
{
    /// <summary>Creates the exception, with <see cref="DropReason.Policy"/> as the reason.</summary>
    public AdmissionRejectedException()
        : this(DropReason.Policy, default)
    {
    }

    /// <summary>Creates the exception, with <see cref="DropReason.Policy"/> as the reason.</summary>
    /// <param name="message">The message.</param>
    public AdmissionRejectedException(string message)
        : base(message)
    {
        Reason = DropReason.Policy;
    }

    /// <summary>Creates the exception, with <see cref="DropReason.Policy"/> as the reason.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public AdmissionRejectedException(string message, Exception innerException)
        : base(message, innerException)
    {
        Reason = DropReason.Policy;
    }

    /// <summary>Creates the exception for a rejected request.</summary>
    /// <param name="reason">Why admission rejected the request.</param>
    /// <param name="workflow">The request's workflow; the default id when the execution had no request context.</param>
    public AdmissionRejectedException(DropReason reason, WorkflowId workflow)
        : base(workflow.IsEmpty
            ? $"The operation was rejected by Cicero admission: {reason}."
            : $"The operation of workflow '{workflow.Value}' was rejected by Cicero admission: {reason}.")
    {
        Reason = reason;
        Workflow = workflow;
    }

    /// <summary>Gets why admission rejected the request.</summary>
    public DropReason Reason { get; }

    /// <summary>Gets the rejected request's workflow; the default (empty) id when there was no request context.</summary>
    public WorkflowId Workflow { get; }
}
