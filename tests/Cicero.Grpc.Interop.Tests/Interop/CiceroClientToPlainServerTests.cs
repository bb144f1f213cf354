// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Client;
using Cicero.Grpc.Context;
using Cicero.Grpc.Interop.Tests.Hosting;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.Interop;

/// <summary>
/// A Cicero client (<see cref="CiceroClientInterceptor"/>, calls made inside a Cicero request) calls a plain
/// grpc-dotnet service that has never heard of Cicero.
/// </summary>
public sealed class CiceroClientToPlainServerTests : TransportContractTests, IDisposable
{
    private readonly CiceroRuntime _runtime = new();

    [Fact]
    public async Task Request_budget_caps_a_call_that_sets_no_deadline_of_its_own()
    {
        using (CiceroContext.Use(_runtime.StartRequest("interop", TimeSpan.FromSeconds(1))))
        {
            using var call = Client.HoldAsync(new HoldRequest());
            Assert.True(await State.HoldStarted.WaitAsync(TimeSpan.FromSeconds(10)), "the held call never started");

            var ex = await Assert.ThrowsAsync<RpcException>(() => call.ResponseAsync);
            Assert.Equal(StatusCode.DeadlineExceeded, ex.StatusCode);
        }

        Assert.True(await State.HoldCancelled.WaitAsync(TimeSpan.FromSeconds(10)), "the handler never saw the deadline");
    }

    /// <inheritdoc />
    public void Dispose() => _runtime.Dispose();

    /// <inheritdoc />
    protected override Task<TestServer> StartServerAsync(ProbeState state) => TestServer.StartAsync(
        services =>
        {
            services.AddSingleton(state);
            services.AddGrpc(ConfigureServer);
        },
        app => app.MapGrpcService<ProbeService>());

    /// <inheritdoc />
    protected override CallInvoker CreateInvoker(GrpcChannel channel) =>
        channel.Intercept(new CiceroClientInterceptor(_runtime, "probe", "http://127.0.0.1:1"));

    /// <inheritdoc />
    protected override IDisposable Enter() => CiceroContext.Use(_runtime.StartRequest("interop", TimeSpan.FromSeconds(60)));

    /// <inheritdoc />
    protected override void CheckCiceroPart(EchoReply reply, Metadata trailers)
    {
        // The context header crossed (the plain server ignores it) and the request's budget became a gRPC deadline;
        // no Cicero trailer comes back, which the interceptor takes in its stride.
        Assert.True(reply.SawCiceroContext, "the Cicero context header did not reach the server");
        Assert.True(reply.HadDeadline, "the call carried no deadline");
        Assert.False(CiceroTrailers.TryRead(trailers, out _));
    }
}
