// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Interop.Tests.Protos;
using Grpc.Core;

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>The leaf tier: records the work it was told it did into the request's progress counters b.</summary>
public sealed class LeafService : Leaf.LeafBase
{
    /// <inheritdoc />
    public override Task<WorkReply> Handle(WorkRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);
        var current = Tiers.CurrentRequest();
        current.Progress.AddLocalWork(request.ServiceSeconds, request.Load);
        return Task.FromResult(Tiers.Reply(current, context));
    }
}
