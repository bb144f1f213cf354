// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Protocol;
using Microsoft.AspNetCore.Http;

namespace Cicero.Grpc.Server;

/// <summary>Writes response messages to the HTTP/2 response body.</summary>
internal sealed class HttpResponseStreamWriter<T>(HttpResponse response, Marshaller<T> marshaller, int maxMessageSize, CancellationToken callToken)
    : IAsyncStreamWriter<T>
{
    private bool _writing;

    public async Task WriteAsync(T message, CancellationToken cancellationToken = default)
    {
        if (_writing)
        {
            throw new InvalidOperationException("Another write is in progress; await each WriteAsync before the next.");
        }

        _writing = true;
        try
        {
            callToken.ThrowIfCancellationRequested();
            using var frame = MessageFraming.Serialize(marshaller, message, maxMessageSize);
            await response.BodyWriter.WriteAsync(frame.Complete(), cancellationToken).ConfigureAwait(false);
        }
        finally
        {
            _writing = false;
        }
    }
}
