// SPDX-License-Identifier: Apache-2.0


namespace Cicero.Runtime;

/// <summary>
/// Thrown into user code when Cicero drops a request or sub-task (Table 5.1's DropRequest/Subtask), so the caller can
/// degrade gracefully. <see cref="Reason"/> says why.
/// </summary>
public sealed class RequestDroppedException : Exception
{
    /// <summary>Creates the exception.</summary>
    public RequestDroppedException()
        : this(DropReason.Policy)
    {
    }

    /// <summary>Creates the exception.</summary>
    /// <param name="message">The message.</param>
    public RequestDroppedException(string message)
        : base(message)
    {
        Reason = DropReason.Policy;
    }

    /// <summary>Creates the exception.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public RequestDroppedException(string message, Exception innerException)
        : base(message, innerException)
    {
        Reason = DropReason.Policy;
    }

    /// <summary>Creates the exception for a reason.</summary>
    /// <param name="reason">Why the request was dropped.</param>
    /// <param name="detail">More detail, such as the resource or workflow.</param>
    public RequestDroppedException(DropReason reason, string? detail = null)
        : base(detail is null ? $"The request was dropped: {reason}." : $"The request was dropped: {reason} ({detail}).")
    {
        Reason = reason;
    }

    /// <summary>Gets why the request was dropped.</summary>
    public DropReason Reason { get; }
}
