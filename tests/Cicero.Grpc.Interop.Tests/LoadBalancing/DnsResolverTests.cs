// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Client;
using Cicero.Grpc.Interop.Tests.Protos;
using Cicero.Grpc.Interop.Tests.Services;
using Cicero.Runtime;
using Grpc.Core;
using Grpc.Core.Interceptors;
using Grpc.Net.Client;
using Grpc.Net.Client.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Interop.Tests.LoadBalancing;

/// <summary>
/// A Cicero policy behind grpc-dotnet's own DNS resolver (<c>dns:///localhost:port</c>): the name resolves to loopback
/// addresses, the balancer keeps one replica per address that connects, and every call is answered.
/// </summary>
public sealed class DnsResolverTests
{
    [Theory]
    [InlineData("c3")]
    [InlineData("least-outstanding")]
    public async Task A_Cicero_policy_balances_a_dns_target(string policy)
    {
        await using var replicas = await ProbeReplicas.StartAsync(new ProbeState());
        var port = replicas.Addresses[0].Port;
        var services = new ServiceCollection().AddCiceroLoadBalancing();
        await using var provider = services.BuildServiceProvider();
        using var channel = GrpcChannel.ForAddress($"dns:///localhost:{port}", new GrpcChannelOptions
        {
            ServiceProvider = provider,
            Credentials = ChannelCredentials.Insecure,
            ServiceConfig = new ServiceConfig { LoadBalancingConfigs = { new LoadBalancingConfig(policy) } },
        });
        var client = new Probe.ProbeClient(channel.Intercept(new CiceroClientInterceptor(new CiceroRuntime(), "probe", "dns-client")));

        const int Calls = 40;
        var answered = 0;
        for (var i = 0; i < Calls; i++)
        {
            var reply = await client.EchoAsync(new EchoRequest(), deadline: DateTime.UtcNow.AddSeconds(30));
            Assert.Equal(port, reply.Port);
            answered++;
        }

        Assert.Equal(Calls, answered);
        Assert.Equal(Calls, replicas.States[0].Calls);
    }
}
