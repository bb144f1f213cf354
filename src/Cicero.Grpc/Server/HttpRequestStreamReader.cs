// SPDX-License-Identifier: Apache-2.0

using System.IO.Pipelines;
using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Server;

/// <summary>Reads request messages from the HTTP/2 request body.</summary>
internal sealed class HttpRequestStreamReader<T>(PipeReader reader, Marshaller<T> marshaller, int maxMessageSize, CancellationToken callToken)
    : IAsyncStreamReader<T>
{
    private bool _reading;

    public T Current { get; private set; } = default!;

    public async Task<bool> MoveNext(CancellationToken cancellationToken = default)
    {
        if (_reading)
        {
            throw new InvalidOperationException("Another MoveNext is in progress; read the request stream one message at a time.");
        }

        _reading = true;
        try
        {
            using var linked = cancellationToken.CanBeCanceled
                ? CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, callToken)
                : null;
            var (read, message) = await MessageFraming.ReadAsync(reader, marshaller, maxMessageSize, linked?.Token ?? callToken).ConfigureAwait(false);
            if (read)
            {
                Current = message;
            }

            return read;
        }
        finally
        {
            _reading = false;
        }
    }
}
