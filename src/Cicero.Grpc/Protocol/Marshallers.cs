// SPDX-License-Identifier: Apache-2.0

using Google.Protobuf;

namespace Cicero.Grpc.Protocol;

/// <summary>Marshallers for common message types.</summary>
public static class Marshallers
{
    /// <summary>Creates the marshaller of a protobuf message type.</summary>
    /// <typeparam name="T">The message type.</typeparam>
    /// <param name="parser">The type's parser (<c>T.Parser</c>).</param>
    /// <returns>The marshaller.</returns>
    public static Marshaller<T> ForProtobuf<T>(MessageParser<T> parser)
        where T : IMessage<T>
    {
        ArgumentNullException.ThrowIfNull(parser);
        return new Marshaller<T>(static (message, writer) => message.WriteTo(writer), parser.ParseFrom);
    }
}
