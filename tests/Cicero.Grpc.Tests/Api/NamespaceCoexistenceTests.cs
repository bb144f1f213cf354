// SPDX-License-Identifier: Apache-2.0

// Every Cicero namespace next to Grpc.Core: an application imports them together, so none may hide or clash with a
// grpc-dotnet type. This file compiling is half the test. (OpenTelemetry.Trace, where Cicero's tracer extension
// lives, is left out: its own Status and StatusCode clash with Grpc.Core's whatever Cicero does.)
using Cicero;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Diagnostics;
using Cicero.Grpc;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Client;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.LoadBalancing;
using Cicero.Grpc.RateExchange;
using Cicero.Grpc.RateExchange.Protocol;
using Cicero.Grpc.Resilience;
using Cicero.Grpc.Server;
using Cicero.Grpc.Telemetry;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Internal;
using Cicero.Measurement;
using Cicero.Model;
using Cicero.Policies.Dropping;
using Cicero.Policies.RateLimiting;
using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;
using Cicero.Policies.Scheduling;
using Cicero.RateAdaptation;
using Cicero.ReplicaSelection;
using Cicero.Resources;
using Cicero.Runtime;
using Cicero.Time;
using Cicero.Workflows;
using Grpc.AspNetCore.Server;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Balancer;
using Grpc.Net.ClientFactory;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Metrics;
using Polly;

namespace Cicero.Grpc.Tests.Api;

public sealed class NamespaceCoexistenceTests
{
    private static readonly string[] GrpcAssemblies = ["Grpc.Core.Api", "Grpc.Net.Client", "Grpc.Net.ClientFactory", "Grpc.AspNetCore.Server"];

    [Fact]
    public async Task GrpcCoreTypes_AreUsableUnqualified_NextToEveryCiceroNamespace()
    {
        using var runtime = new CiceroRuntime();
        var options = new CiceroGrpcOptions { ServiceName = "svc", InstanceId = "http://127.0.0.1:1", IsEntryPoint = false };
        Interceptor server = new CiceroServerInterceptor(runtime, options, new CiceroInstance(options, new ServiceCollection().BuildServiceProvider()));
        ServerCallContext context = new TestServerCallContext(requestHeaders: new Metadata { { CiceroMetadataKeys.Context, new byte[] { 0xFF } } });

        var ex = await Assert.ThrowsAsync<RpcException>(() => server.UnaryServerHandler("x", context, (string r, ServerCallContext _) => Task.FromResult(r)));

        Status status = ex.Status;
        Assert.Equal(StatusCode.InvalidArgument, status.StatusCode);
        Metadata trailers = new() { { CiceroMetadataKeys.DropReason, DropReasonNames.ToWire(DropReason.RateLimited) } };
        Assert.False(CiceroTrailers.TryRead(trailers, out _));
        Assert.Equal(StatusCode.ResourceExhausted, DropReasonNames.ToStatusCode(DropReason.RateLimited));
        Assert.Equal("c3", ReplicaSelectorBalancerFactory.C3().Name);
        Assert.Equal("cicero.v1", GetAdmissionRatesRequest.Descriptor.File.Package);
    }

    [Fact]
    public void NoPublicCiceroType_SharesItsNameWithAPublicGrpcDotnetType()
    {
        var grpcNames = AppDomain.CurrentDomain.GetAssemblies()
            .Concat([typeof(Metadata).Assembly, typeof(GrpcChannel).Assembly, typeof(GrpcClientFactoryOptions).Assembly, typeof(GrpcServiceOptions).Assembly])
            .Where(a => GrpcAssemblies.Contains(a.GetName().Name, StringComparer.Ordinal))
            .Distinct()
            .SelectMany(a => a.GetExportedTypes())
            .ToLookup(t => t.Name, StringComparer.Ordinal);
        Assert.Equal(GrpcAssemblies.Length, grpcNames.SelectMany(g => g).Select(t => t.Assembly).Distinct().Count());

        var ciceroTypes = new[] { typeof(CiceroServerInterceptor).Assembly, typeof(CiceroRuntime).Assembly, typeof(PolicyCatalog).Assembly }
            .SelectMany(a => a.GetExportedTypes());
        var clashes = ciceroTypes
            .Where(t => grpcNames.Contains(t.Name))
            .Select(t => $"{t.FullName} / {string.Join(", ", grpcNames[t.Name].Select(g => g.FullName))}")
            .ToList();

        Assert.True(clashes.Count == 0, "Cicero types named like grpc-dotnet types: " + string.Join("; ", clashes));
    }
}
