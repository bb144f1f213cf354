// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Tests.Infrastructure;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Tests.Hosting;

public sealed class OptionsValidationTests
{
    [Fact]
    public async Task Invalid_options_stop_the_start_up_with_every_problem_named()
    {
        var ex = await Assert.ThrowsAsync<OptionsValidationException>(() => TestHost.StartAsync(
            s => s.AddCicero(o =>
            {
                o.Core.RateAdaptation.Quantile = 1.5;
                o.RateLimitPolicy = "fastest";
            })
            .AddResource("disk", capacity: 0, scheduler: "lifo")
            .AddDownstream("storage", ["not a uri"], loadBalancingPolicy: "magic"),
            _ => { }));

        var message = ex.Message;
        Assert.Contains("Cicero:ServiceName is required", message, StringComparison.Ordinal);
        Assert.Contains("Quantile must be in [0, 1]; was 1.5", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:RateLimitPolicy 'fastest' is unknown; known: ", message, StringComparison.Ordinal);
        Assert.Contains("bottleneck-fairness", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Resources[0]:Capacity must be at least 1; was 0", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Resources[0]:Scheduler 'lifo' is unknown", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Downstreams[0]:Addresses[0] 'not a uri' is not an absolute http or https address", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Downstreams[0]:LoadBalancingPolicy 'magic' is unknown", message, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_other_rule_names_its_setting()
    {
        var services = new ServiceCollection();
        services.AddCicero(o =>
        {
            o.ServiceName = "svc";
            o.InstanceId = "not-an-address";
            o.MaxContextHeaderBytes = 8;
            o.Core.MaxWorkflows = 1;
            o.Core.RateAdaptation.QueryTimeout = o.Core.RateAdaptation.Interval * 2;
            o.DropPolicy = "sometimes";
        })
        .AddResource("disk", capacity: 1)
        .AddResource("disk", capacity: 1, maxQueueLength: -1)
        .AddDownstream("storage", [])
        .AddDownstream("storage", ["http://127.0.0.1:1"], "round_robin");
        using var provider = services.BuildServiceProvider();

        var ex = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<CiceroGrpcOptions>());

        var message = ex.Message;
        Assert.Contains("Cicero:InstanceId 'not-an-address' must be the absolute address", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:MaxContextHeaderBytes must be at least 16; was 8", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Core:MaxWorkflows must be at least 2; was 1", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Core:RateAdaptation:QueryTimeout must be positive and at most the interval", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:DropPolicy 'sometimes' is unknown", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Resources[1]:Name 'disk' is used twice", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Resources[1]:MaxQueueLength must be at least 0; was -1", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Downstreams[0]:Addresses needs at least one address", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Downstreams[1]:Name 'storage' is used twice", message, StringComparison.Ordinal);
        Assert.DoesNotContain("ServiceName", message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("c3")]
    [InlineData("round_robin")]
    [InlineData("pick_first")]
    [InlineData("least-outstanding")]
    public void Known_load_balancing_policies_are_accepted(string policy)
    {
        var services = new ServiceCollection();
        services.AddCicero(o => o.ServiceName = "svc").AddDownstream("storage", ["https://127.0.0.1:5001"], policy);
        using var provider = services.BuildServiceProvider();

        var options = provider.GetRequiredService<CiceroGrpcOptions>();

        Assert.Equal(policy, Assert.Single(options.Downstreams).LoadBalancingPolicy);
    }

    [Fact]
    public async Task Minimal_set_up_starts_with_defaults()
    {
        await using var host = await TestHost.StartAsync(s => s.AddCicero(o => o.ServiceName = "svc"), _ => { });
        var runtime = host.Services.GetRequiredService<Cicero.Runtime.CiceroRuntime>();
        Assert.Equal(0.5, runtime.Options.RateAdaptation.Quantile);
        Assert.Equal(TimeSpan.FromMilliseconds(100), runtime.Options.RateAdaptation.Interval);
    }
}
