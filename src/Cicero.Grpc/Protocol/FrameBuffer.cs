// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Buffers.Binary;

namespace Cicero.Grpc.Protocol;

/// <summary>
/// A pooled buffer that a marshaller serializes one message into, behind room for the 5-byte gRPC frame header, so the
/// header (which needs the length) is written afterwards without copying the message.
/// </summary>
internal sealed class FrameBuffer : IBufferWriter<byte>, IDisposable
{
    public const int HeaderLength = 5;

    private byte[] _buffer;
    private int _written = HeaderLength;

    public FrameBuffer(int initialCapacity = 256) => _buffer = ArrayPool<byte>.Shared.Rent(Math.Max(initialCapacity, 64));

    public int MessageLength => _written - HeaderLength;

    public void Advance(int count)
    {
        if (count < 0 || _written + count > _buffer.Length)
        {
            throw new ArgumentOutOfRangeException(nameof(count));
        }

        _written += count;
    }

    public Memory<byte> GetMemory(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsMemory(_written);
    }

    public Span<byte> GetSpan(int sizeHint = 0)
    {
        Ensure(sizeHint);
        return _buffer.AsSpan(_written);
    }

    /// <summary>Writes the frame header (uncompressed) and returns the whole frame.</summary>
    public ReadOnlyMemory<byte> Complete()
    {
        _buffer[0] = 0;
        BinaryPrimitives.WriteUInt32BigEndian(_buffer.AsSpan(1, 4), (uint)MessageLength);
        return _buffer.AsMemory(0, _written);
    }

    public void Dispose()
    {
        var buffer = _buffer;
        _buffer = [];
        if (buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(buffer);
        }
    }

    private void Ensure(int sizeHint)
    {
        sizeHint = Math.Max(sizeHint, 1);
        if (_buffer.Length - _written >= sizeHint)
        {
            return;
        }

        var next = ArrayPool<byte>.Shared.Rent(Math.Max(_buffer.Length * 2, _written + sizeHint));
        _buffer.AsSpan(0, _written).CopyTo(next);
        ArrayPool<byte>.Shared.Return(_buffer);
        _buffer = next;
    }
}
