// SPDX-License-Identifier: Apache-2.0

using System.Buffers;

namespace Cicero.Grpc.Protocol;

/// <summary>Turns messages of one type into bytes and back.</summary>
/// <typeparam name="T">The message type.</typeparam>
public sealed class Marshaller<T>
{
    /// <summary>Creates a marshaller.</summary>
    /// <param name="serializer">Writes a message.</param>
    /// <param name="deserializer">Reads a message from exactly its bytes; throws on malformed input.</param>
    public Marshaller(Action<T, IBufferWriter<byte>> serializer, Func<ReadOnlySequence<byte>, T> deserializer)
    {
        ArgumentNullException.ThrowIfNull(serializer);
        ArgumentNullException.ThrowIfNull(deserializer);
        Serializer = serializer;
        Deserializer = deserializer;
    }

    /// <summary>Gets the serializer.</summary>
    public Action<T, IBufferWriter<byte>> Serializer { get; }

    /// <summary>Gets the deserializer.</summary>
    public Func<ReadOnlySequence<byte>, T> Deserializer { get; }
}
