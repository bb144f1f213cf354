// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Polly;

namespace Cicero.Grpc.Resilience;

/// <summary>Finds the request an execution belongs to: the selector, else the context property, else the ambient context.</summary>
internal static class RequestContextResolver
{
    public static RequestContext? Resolve(ResilienceContext context, Func<ResilienceContext, RequestContext?>? selector)
    {
        if (selector is not null)
        {
            return selector(context);
        }

        return context.Properties.TryGetValue(CiceroResilienceKeys.RequestContext, out var request) && request is not null
            ? request
            : CiceroContext.Current;
    }
}
