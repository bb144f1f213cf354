// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Grpc.Server;
using Cicero.Grpc.Tests.Infrastructure;
using Microsoft.AspNetCore.Http;

namespace Cicero.Grpc.Tests.Reliability;

/// <summary>Maps one well-behaved handler per call kind on a server, so any failure the fuzzer finds is Cicero's.</summary>
internal static class FuzzHandlers
{
    public static Func<HttpContext, Task>[] MapAll(InProcessServer server) =>
    [
        server.Map(TestMethods.Unary(), new UnaryServerMethod<string, string>((request, _) => Task.FromResult(request))).HandleAsync,
        server.Map(TestMethods.ServerStreaming(), new ServerStreamingServerMethod<string, string>(async (request, responses, _) =>
        {
            await responses.WriteAsync(request);
            await responses.WriteAsync(request);
        })).HandleAsync,
        server.Map(TestMethods.ClientStreaming(), new ClientStreamingServerMethod<string, string>(async (requests, _) =>
        {
            var length = 0;
            while (await requests.MoveNext())
            {
                length += requests.Current.Length;
            }

            return length.ToString(CultureInfo.InvariantCulture);
        })).HandleAsync,
        server.Map(TestMethods.Duplex(), new DuplexStreamingServerMethod<string, string>(async (requests, responses, _) =>
        {
            while (await requests.MoveNext())
            {
                await responses.WriteAsync(requests.Current);
            }
        })).HandleAsync,
    ];
}
