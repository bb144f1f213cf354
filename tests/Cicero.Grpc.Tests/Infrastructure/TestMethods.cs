// SPDX-License-Identifier: Apache-2.0

using System.Buffers;
using System.Text;
using Cicero.Grpc.Protocol;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>Methods over UTF-8 strings, enough to exercise the transport without generated code.</summary>
internal static class TestMethods
{
    public static readonly Marshaller<string> Utf8 = new(
        (value, writer) =>
        {
            var span = writer.GetSpan(Encoding.UTF8.GetMaxByteCount(value.Length));
            writer.Advance(Encoding.UTF8.GetBytes(value, span));
        },
        sequence => Encoding.UTF8.GetString(sequence.ToArray()));

    public static Method<string, string> Unary(string name = "Echo") => new(MethodType.Unary, "test.Echo", name, Utf8, Utf8);

    public static Method<string, string> ServerStreaming(string name = "Split") => new(MethodType.ServerStreaming, "test.Echo", name, Utf8, Utf8);

    public static Method<string, string> ClientStreaming(string name = "Join") => new(MethodType.ClientStreaming, "test.Echo", name, Utf8, Utf8);

    public static Method<string, string> Duplex(string name = "Upper") => new(MethodType.DuplexStreaming, "test.Echo", name, Utf8, Utf8);
}
