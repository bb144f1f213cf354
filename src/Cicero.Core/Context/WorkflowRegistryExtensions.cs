// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Context;

/// <summary>
/// Resolves a request's workflow through its context. It lives beside the context, not on the registry, so that
/// Workflows stays below Context (a context names its workflow; the registry knows nothing of contexts).
/// </summary>
public static class WorkflowRegistryExtensions
{
    /// <summary>Returns the slot of the context's workflow, caching it on the context for later look-ups.</summary>
    /// <param name="registry">The registry.</param>
    /// <param name="context">The request context.</param>
    /// <returns>The slot.</returns>
    public static WorkflowSlot Resolve(this WorkflowRegistry registry, RequestContext context)
    {
        ArgumentNullException.ThrowIfNull(registry);
        ArgumentNullException.ThrowIfNull(context);
        var cached = context.CachedSlot;
        if (cached is not null && ReferenceEquals(cached.Registry, registry))
        {
            return cached;
        }

        var slot = registry.Resolve(context.Workflow);
        context.CachedSlot = slot;
        return slot;
    }
}
