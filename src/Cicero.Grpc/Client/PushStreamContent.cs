// SPDX-License-Identifier: Apache-2.0

using System.Net;
using System.Net.Http.Headers;
using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Client;

/// <summary>
/// A request body written while the call runs: HttpClient hands over the stream when it starts sending, and the body
/// ends when the writer completes it.
/// </summary>
internal sealed class PushStreamContent : HttpContent
{
    private readonly TaskCompletionSource<Stream> _stream = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _completed = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public PushStreamContent() => Headers.ContentType = new MediaTypeHeaderValue(GrpcProtocol.ContentType);

    public Task<Stream> StreamAsync => _stream.Task;

    public void Complete() => _completed.TrySetResult();

    public void Abort() => _completed.TrySetCanceled();

    protected override Task SerializeToStreamAsync(Stream stream, TransportContext? context)
    {
        _stream.TrySetResult(stream);
        return _completed.Task;
    }

    protected override bool TryComputeLength(out long length)
    {
        length = -1;
        return false;
    }
}
