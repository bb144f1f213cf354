// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Interop.Tests.Protos;
using Grpc.Core;

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>The entry tier: records its own work, then calls the middle once.</summary>
public sealed class EntryService(Middle.MiddleClient middle) : Entry.EntryBase
{
    /// <summary>The service time the entry records for itself, in seconds.</summary>
    public const double OwnServiceSeconds = 0.001;

    /// <summary>The load the entry records for itself.</summary>
    public const double OwnLoad = 0.1;

    /// <inheritdoc />
    public override async Task<WorkReply> Handle(WorkRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);
        var current = Tiers.CurrentRequest();
        current.Progress.AddLocalWork(OwnServiceSeconds, OwnLoad);
        await middle.HandleAsync(request, cancellationToken: context.CancellationToken);
        return Tiers.Reply(current, context);
    }
}
