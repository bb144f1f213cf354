// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Polly;

namespace Cicero.Grpc.Resilience;

/// <summary>The arguments of <see cref="CiceroAdmissionStrategyOptions.OnRejected"/>.</summary>
/// <remarks>Always use the constructor when creating this struct, otherwise we do not guarantee binary compatibility.</remarks>
public readonly struct OnAdmissionRejectedArguments
{
    /// <summary>Creates the arguments.</summary>
    /// <param name="context">The resilience context of the rejected execution.</param>
    /// <param name="request">The rejected request, or <see langword="null"/> when it had no context.</param>
    /// <param name="reason">Why admission rejected it.</param>
    public OnAdmissionRejectedArguments(ResilienceContext context, RequestContext? request, DropReason reason)
    {
        Context = context;
        Request = request;
        Reason = reason;
    }

    /// <summary>Gets the resilience context of the rejected execution.</summary>
    public ResilienceContext Context { get; }

    /// <summary>
    /// Gets the rejected request, or <see langword="null"/> when the execution had none and
    /// <see cref="CiceroAdmissionStrategyOptions.MissingContext"/> is <see cref="MissingContextBehavior.Reject"/>.
    /// </summary>
    public RequestContext? Request { get; }

    /// <summary>Gets why admission rejected the request.</summary>
    public DropReason Reason { get; }
}
