// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Buffers.Binary;
using Cicero.Grpc.Protocol;

namespace Cicero.Emulator.Live;

/// <summary>
/// What one emulated RPC asks an instance to run: a compiled plan body (every process compiles the same scenario, so
/// an index names it), the request's partition and block, and its id for tracing.
/// </summary>
internal readonly record struct NodeRequest(int Workflow, int Body, int Partition, int Block, long RequestId)
{
    public const int Length = (4 * sizeof(int)) + sizeof(long);

    /// <summary>The emulator's one method: <c>/cicero.emulator.v1.Node/Execute</c>.</summary>
    public static Method<NodeRequest, NodeRequest> Execute { get; } = new(
        MethodType.Unary,
        "cicero.emulator.v1.Node",
        "Execute",
        new Marshaller<NodeRequest>(Write, Read),
        new Marshaller<NodeRequest>(Write, Read));

    private static void Write(NodeRequest request, IBufferWriter<byte> writer)
    {
        var span = writer.GetSpan(Length);
        BinaryPrimitives.WriteInt32LittleEndian(span, request.Workflow);
        BinaryPrimitives.WriteInt32LittleEndian(span[4..], request.Body);
        BinaryPrimitives.WriteInt32LittleEndian(span[8..], request.Partition);
        BinaryPrimitives.WriteInt32LittleEndian(span[12..], request.Block);
        BinaryPrimitives.WriteInt64LittleEndian(span[16..], request.RequestId);
        writer.Advance(Length);
    }

    private static NodeRequest Read(ReadOnlySequence<byte> sequence)
    {
        if (sequence.Length != Length)
        {
            throw new FormatException($"A node request is {Length} bytes; got {sequence.Length}.");
        }

        Span<byte> span = stackalloc byte[Length];
        sequence.CopyTo(span);
        return new NodeRequest(
            BinaryPrimitives.ReadInt32LittleEndian(span),
            BinaryPrimitives.ReadInt32LittleEndian(span[4..]),
            BinaryPrimitives.ReadInt32LittleEndian(span[8..]),
            BinaryPrimitives.ReadInt32LittleEndian(span[12..]),
            BinaryPrimitives.ReadInt64LittleEndian(span[16..]));
    }
}
