// SPDX-License-Identifier: Apache-2.0

using Yarp.ReverseProxy.Forwarder;

namespace Cicero.FaultProxy;

/// <summary>YARP's default transforms, with the response held back by the injected delay before its headers go out.</summary>
internal sealed class DelayingTransformer(DelayInjector delay) : HttpTransformer
{
    public override async ValueTask<bool> TransformResponseAsync(HttpContext httpContext, HttpResponseMessage? proxyResponse, CancellationToken cancellationToken)
    {
        await delay.WaitAsync(cancellationToken);
        return await Default.TransformResponseAsync(httpContext, proxyResponse, cancellationToken);
    }
}
