// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Cicero.Grpc.Interop.Tests.Protos;
using Grpc.Core;

namespace Cicero.Grpc.Interop.Tests.Services;

/// <summary>
/// The middle tier: records its own work, then calls the leaf three times, in parallel (one
/// <see cref="ParallelCalls"/> fan-out) or one after another. Branch i (1-3) asks the leaf for i times the request's work.
/// </summary>
public sealed class MiddleService(Leaf.LeafClient leaf) : Middle.MiddleBase
{
    /// <summary>The service time the middle records for itself, in seconds.</summary>
    public const double OwnServiceSeconds = 0.005;

    /// <summary>The load the middle records for itself.</summary>
    public const double OwnLoad = 0.25;

    /// <summary>The number of leaf calls per request.</summary>
    public const int FanOut = 3;

    /// <inheritdoc />
    public override async Task<WorkReply> Handle(WorkRequest request, ServerCallContext context)
    {
        ArgumentNullException.ThrowIfNull(request);
        ArgumentNullException.ThrowIfNull(context);
        var current = Tiers.CurrentRequest();
        current.Progress.AddLocalWork(OwnServiceSeconds, OwnLoad);
        var branches = Enumerable.Range(1, FanOut)
            .Select(i => new WorkRequest { ServiceSeconds = request.ServiceSeconds * i, Load = request.Load * i })
            .ToArray();
        if (request.Sequential)
        {
            foreach (var branch in branches)
            {
                await leaf.HandleAsync(branch, cancellationToken: context.CancellationToken);
            }
        }
        else
        {
            using (ParallelCalls.Begin())
            {
                await Task.WhenAll(branches.Select(branch => leaf.HandleAsync(branch, cancellationToken: context.CancellationToken).ResponseAsync));
            }
        }

        return Tiers.Reply(current, context);
    }
}
