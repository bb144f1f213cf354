// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Hosting;
using Cicero.Grpc.Tests.Infrastructure;
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
    public async Task Minimal_set_up_starts_with_defaults()
    {
        await using var host = await TestHost.StartAsync(s => s.AddCicero(o => o.ServiceName = "svc"), _ => { });
        var runtime = (Cicero.Runtime.CiceroRuntime)host.Services.GetService(typeof(Cicero.Runtime.CiceroRuntime))!;
        Assert.Equal(0.5, runtime.Options.RateAdaptation.Quantile);
        Assert.Equal(TimeSpan.FromMilliseconds(100), runtime.Options.RateAdaptation.Interval);
    }
}
