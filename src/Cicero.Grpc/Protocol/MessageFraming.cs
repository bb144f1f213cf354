// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Buffers.Binary;
using System.IO.Pipelines;

namespace Cicero.Grpc.Protocol;

/// <summary>gRPC's length-prefixed messages: a compressed flag byte, a 4-byte big-endian length, the message.</summary>
internal static class MessageFraming
{
    /// <summary>Serializes a message into a frame; the caller disposes the buffer after writing it.</summary>
    public static FrameBuffer Serialize<T>(Marshaller<T> marshaller, T message, int maxMessageSize)
    {
        var buffer = new FrameBuffer();
        try
        {
            marshaller.Serializer(message, buffer);
            if (buffer.MessageLength > maxMessageSize)
            {
                throw new RpcException(new RpcStatus(
                    StatusCode.ResourceExhausted,
                    $"Sending message exceeds the maximum configured message size ({buffer.MessageLength} > {maxMessageSize} bytes)."));
            }

            buffer.Complete();
            return buffer;
        }
        catch
        {
            buffer.Dispose();
            throw;
        }
    }

    /// <summary>Reads the next message; <see langword="false"/> at a clean end of stream.</summary>
    /// <exception cref="RpcException">The stream ends inside a frame, the frame is compressed, too large, or malformed.</exception>
    public static async ValueTask<(bool Read, T Message)> ReadAsync<T>(
        PipeReader reader,
        Marshaller<T> marshaller,
        int maxMessageSize,
        CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken).ConfigureAwait(false);
            var buffer = result.Buffer;
            if (TryParse(ref buffer, maxMessageSize, out var payload))
            {
                T message;
                try
                {
                    message = marshaller.Deserializer(payload);
                }
                catch (Exception ex) when (ex is not OperationCanceledException)
                {
                    reader.AdvanceTo(buffer.Start);
                    throw new RpcException(new RpcStatus(StatusCode.Internal, $"Failed to deserialize a {typeof(T).Name} message: {ex.Message}"), null, ex);
                }

                reader.AdvanceTo(buffer.Start);
                return (true, message);
            }

            if (result.IsCompleted || result.IsCanceled)
            {
                var remaining = buffer.Length;
                reader.AdvanceTo(buffer.End);
                if (remaining == 0)
                {
                    return (false, default!);
                }

                throw new RpcException(new RpcStatus(StatusCode.Internal, $"The stream ended inside a message frame ({remaining} bytes left over)."));
            }

            reader.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    private static bool TryParse(ref ReadOnlySequence<byte> buffer, int maxMessageSize, out ReadOnlySequence<byte> payload)
    {
        payload = default;
        if (buffer.Length < FrameBuffer.HeaderLength)
        {
            return false;
        }

        Span<byte> header = stackalloc byte[FrameBuffer.HeaderLength];
        buffer.Slice(0, FrameBuffer.HeaderLength).CopyTo(header);
        if (header[0] == 1)
        {
            throw new RpcException(new RpcStatus(StatusCode.Unimplemented, "Compressed messages are not supported; no grpc-encoding was negotiated."));
        }

        if (header[0] != 0)
        {
            throw new RpcException(new RpcStatus(StatusCode.Internal, $"Malformed message frame: compressed flag is {header[0]}, expected 0 or 1."));
        }

        var length = BinaryPrimitives.ReadUInt32BigEndian(header[1..]);
        if (length > (uint)maxMessageSize)
        {
            throw new RpcException(new RpcStatus(
                StatusCode.ResourceExhausted,
                $"Received message exceeds the maximum configured message size ({length} > {maxMessageSize} bytes)."));
        }

        if (buffer.Length < FrameBuffer.HeaderLength + length)
        {
            return false;
        }

        payload = buffer.Slice(FrameBuffer.HeaderLength, length);
        buffer = buffer.Slice(payload.End);
        return true;
    }
}
