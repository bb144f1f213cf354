// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Client;

/// <summary>Attaches client interceptors to a call invoker.</summary>
public static class CallInvokerExtensions
{
    /// <summary>Wraps an invoker with interceptors; the first listed runs first (outermost).</summary>
    /// <param name="invoker">The invoker.</param>
    /// <param name="interceptors">The interceptors.</param>
    /// <returns>The intercepting invoker.</returns>
    public static CallInvoker Intercept(this CallInvoker invoker, params ClientInterceptor[] interceptors)
    {
        ArgumentNullException.ThrowIfNull(invoker);
        ArgumentNullException.ThrowIfNull(interceptors);
        for (var i = interceptors.Length - 1; i >= 0; i--)
        {
            invoker = new InterceptingCallInvoker(invoker, interceptors[i] ?? throw new ArgumentException("An interceptor is null.", nameof(interceptors)));
        }

        return invoker;
    }
}
