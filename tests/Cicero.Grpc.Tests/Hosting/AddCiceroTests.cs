// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Hosting;
using Cicero.Grpc.Server;
using Microsoft.Extensions.DependencyInjection;

namespace Cicero.Grpc.Tests.Hosting;

public sealed class AddCiceroTests
{
    [Fact]
    public void AddCicero_Twice_PutsOneInterceptorInThePipeline_AndAppliesBothConfigurations()
    {
        var services = new ServiceCollection();
        services.AddCicero(o => o.ServiceName = "svc");
        services.AddCicero(o => o.MaxContextHeaderBytes = 300);

        using var provider = services.BuildServiceProvider();

        Assert.Single(provider.GetServices<ServerInterceptor>());
        var options = provider.GetRequiredService<Configuration.CiceroGrpcOptions>();
        Assert.Equal("svc", options.ServiceName);
        Assert.Equal(300, options.MaxContextHeaderBytes);
    }
}
