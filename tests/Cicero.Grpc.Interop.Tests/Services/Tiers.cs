// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Interop.Tests.Protos;
using Grpc.Core;

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>What the three tiers share: the request they run in, and a reply carrying its progress counters b.</summary>
public static class Tiers
{
    /// <summary>Gets the Cicero request the handler runs in; Cicero's server interceptor made it ambient.</summary>
    /// <returns>The request's context.</returns>
    public static RequestContext CurrentRequest() =>
        CiceroContext.Current ?? throw new RpcException(new Status(StatusCode.FailedPrecondition, "The handler runs outside a Cicero request."));

    /// <summary>Replies with the hop's progress counters b so far and the port that answered.</summary>
    /// <param name="current">The request.</param>
    /// <param name="context">The call.</param>
    /// <returns>The reply.</returns>
    public static WorkReply Reply(RequestContext current, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(current);
        ArgumentNullException.ThrowIfNull(context);
        var b = current.Progress.Current;
        return new WorkReply { ServiceSeconds = b.ServiceTime, Load = b.Load, Port = context.GetHttpContext().Connection.LocalPort };
    }
}
