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

    [Fact]
    public async Task AddResource_WithOptions_RefusesAWaiterPastItsDeadline()
    {
        var clock = new Cicero.Time.VirtualTimeProvider();
        var services = new ServiceCollection();
        services.AddSingleton<TimeProvider>(clock);
        services.AddCicero(o => { o.ServiceName = "svc"; o.InstanceId = "http://127.0.0.1:1"; })
            .AddResource(new Configuration.CiceroResourceOptions { Name = "db", Capacity = 1, DropExpiredWaiters = true });
        await using var provider = services.BuildServiceProvider();
        var runtime = provider.GetRequiredService<Cicero.Runtime.CiceroRuntime>();

        var db = runtime.GetResource("db");
        var held = await db.AcquireAsync(runtime.StartRequest("t"));
        var doomed = db.AcquireAsync(runtime.StartRequest("t", TimeSpan.FromMilliseconds(1)));
        clock.Advance(TimeSpan.FromMilliseconds(20));
        held.Dispose();

        Assert.Equal(1, db.Capacity);
        Assert.Equal(Cicero.Admission.DropReason.DeadlineInfeasible, (await doomed).RejectionReason);
    }
}
