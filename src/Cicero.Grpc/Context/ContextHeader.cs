// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Grpc.Context;

/// <summary>
/// The one request header Cicero adds (<see cref="CiceroMetadataKeys.Context"/>): the request context in Core's binary
/// form (<see cref="RequestContextCodec"/>), followed by the calling process's id in ASCII. The context's own header
/// says how long it is, so the id needs no length field; a header without an id is a context alone.
/// </summary>
internal static class ContextHeader
{
    /// <summary>The longest header a default server accepts: the longest context and the longest caller id.</summary>
    public const int MaxLength = RequestContextCodec.MaxEncodedLength + CallerIds.MaxLength;

    /// <summary>Encodes the header into a new array: the value of the binary metadata entry.</summary>
    public static byte[] Encode(RequestContextCodec codec, RequestContext context, ReadOnlySpan<byte> caller)
    {
        Span<byte> bytes = stackalloc byte[MaxLength];
        return bytes[..Write(codec, context, caller, bytes)].ToArray();
    }


    /// <summary>
    /// Splits a header into its context and caller parts. When the context's header is malformed the whole value is
    /// the context part, so that the codec's reader reports exactly what is wrong.
    /// </summary>
    public static void Split(ReadOnlySpan<byte> value, out ReadOnlySpan<byte> context, out ReadOnlySpan<byte> caller)
    {
        if (RequestContextCodec.TryGetEncodedLength(value, out var length) && length <= value.Length)
        {
            context = value[..length];
            caller = value[length..];
            return;
        }

        context = value;
        caller = default;
    }

    private static int Write(RequestContextCodec codec, RequestContext context, ReadOnlySpan<byte> caller, Span<byte> destination)
    {
        var length = codec.WriteDownstream(context, destination);
        caller.CopyTo(destination[length..]);
        return length + caller.Length;
    }
}
