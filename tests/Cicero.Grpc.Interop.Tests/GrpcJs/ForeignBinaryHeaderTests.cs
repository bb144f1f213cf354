// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Grpc.Interop.Tests.StatusTable;
using Cicero.Runtime;
using Google.Protobuf;
using Grpc.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.GrpcJs;

/// <summary>
/// A grpc-js client sends someone else's <c>-bin</c> header that is not base64 (<c>x-other-bin: !!!!</c>, as a foreign
/// proxy may). Plain grpc-dotnet serves the call (it parses metadata only when asked); under every built-in classifier
/// Cicero must serve it the same way, not fail it with UNKNOWN.
/// </summary>
public sealed class ForeignBinaryHeaderTests(GrpcJsClient grpcJs) : IClassFixture<GrpcJsClient>
{
    private const string Method = "/interop.v1.Probe/Echo";

    private static readonly Dictionary<string, string> Headers = new(StringComparer.Ordinal)
    {
        ["x-other-bin"] = "!!!!",
        ["x-tenant"] = "tenant-a",
    };

    public static TheoryData<string> Classifiers => ["by-method", "by-header", "by-user", "fixed"];

    [Theory]
    [MemberData(nameof(Classifiers))]
    public async Task A_malformed_foreign_binary_header_is_served_as_plain_grpc_dotnet_serves_it(string classifier)
    {
        var request = new EchoRequest { Payload = ByteString.CopyFromUtf8("hello") };

        GrpcJsResult plain;
        await using (var server = await TestServer.StartAsync(
            services =>
            {
                services.AddSingleton(new ProbeState());
                services.AddGrpc();
            },
            app => app.MapGrpcService<ProbeService>()))
        {
            plain = await grpcJs.CallAsync(server.Address, Method, request, Headers);
        }

        await using var cicero = await CiceroProbeServer.StartAsync(new ProbeState(), o => o.Classifier = Create(classifier));
        var served = await grpcJs.CallAsync(cicero.Address, Method, request, Headers);

        Assert.True(plain.Status == StatusCode.OK, $"plain grpc-dotnet answered {plain.Status} \"{plain.Detail}\"");
        Assert.True(served.Status == StatusCode.OK, $"Cicero ({classifier}) answered {served.Status} \"{served.Detail}\"");
        Assert.Equal(EchoReply.Parser.ParseFrom(plain.Response).Payload, EchoReply.Parser.ParseFrom(served.Response).Payload);
        if (classifier == "by-header")
        {
            // The tenant header next to the malformed one still classifies the call.
            var registry = cicero.Services.GetRequiredService<CiceroRuntime>().Registry;
            Assert.Contains(Enumerable.Range(0, registry.Count), i => registry[i].Id.Value == "tenant-a");
        }
    }

    private static IWorkflowClassifier Create(string name) => name switch
    {
        "by-method" => WorkflowClassifiers.ByMethod(),
        "by-header" => WorkflowClassifiers.ByHeader("x-tenant"),
        "by-user" => WorkflowClassifiers.ByUser(),
        "fixed" => WorkflowClassifiers.Fixed("all"),
        _ => throw new ArgumentOutOfRangeException(nameof(name), name, "Unknown classifier."),
    };
}
