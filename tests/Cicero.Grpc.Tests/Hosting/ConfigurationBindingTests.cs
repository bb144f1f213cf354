// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Classification;
using Cicero.Grpc.Configuration;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.Runtime;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Tests.Hosting;

/// <summary><c>AddCicero(IConfiguration)</c>: options bound from a configuration section and validated when a real host starts.</summary>
public sealed class ConfigurationBindingTests
{
    [Fact]
    public async Task Section_BindsEverySetting_AndTheHostStartsWithThem()
    {
        var section = Configuration(new()
        {
            ["Services:Cicero:ServiceName"] = "frontend",
            ["Services:Cicero:IsEntryPoint"] = "false",
            ["Services:Cicero:DefaultDeadline"] = "00:00:02",
            ["Services:Cicero:RateLimitPolicy"] = "bottleneck-fairness",
            ["Services:Cicero:Core:MaxWorkflows"] = "64",
            ["Services:Cicero:Core:Admission:QueueLimit"] = "7",
            ["Services:Cicero:Core:RateAdaptation:Interval"] = "00:00:00.250",
            ["Services:Cicero:Core:RateAdaptation:QueryTimeout"] = "00:00:00.200",
            ["Services:Cicero:Core:RateAdaptation:HoldTime"] = "00:00:03",
            ["Services:Cicero:Resources:0:Name"] = "disk",
            ["Services:Cicero:Resources:0:Capacity"] = "3",
            ["Services:Cicero:Resources:0:Scheduler"] = "edf",
            ["Services:Cicero:Downstreams:0:Name"] = "storage",
            ["Services:Cicero:Downstreams:0:Addresses:0"] = "http://127.0.0.1:1",
            ["Services:Cicero:Downstreams:0:Addresses:1"] = "http://127.0.0.1:2",
            ["Services:Cicero:Downstreams:0:LoadBalancingPolicy"] = "round_robin",
            ["Services:Cicero:RateExchange:RunControlLoop"] = "false",
        }).GetSection("Services:Cicero");

        await using var host = await TestHost.StartAsync(
            s => s.AddCicero(section, o => o.Classifier = WorkflowClassifiers.Fixed("set-in-code")),
            _ => { });

        var options = host.Services.GetRequiredService<CiceroGrpcOptions>();
        Assert.Equal("frontend", options.ServiceName);
        Assert.False(options.IsEntryPoint);
        Assert.Equal(TimeSpan.FromSeconds(2), options.DefaultDeadline);
        Assert.Equal(64, options.Core.MaxWorkflows);
        Assert.Equal(7, options.Core.Admission.QueueLimit);
        Assert.Equal(TimeSpan.FromMilliseconds(250), options.Core.RateAdaptation.Interval);
        Assert.Equal(["http://127.0.0.1:1", "http://127.0.0.1:2"], options.Downstreams.Single().Addresses);
        Assert.False(options.RateExchange.RunControlLoop);
        Assert.Equal(WorkflowClassifiers.Fixed("set-in-code").GetType(), options.Classifier.GetType());
        var runtime = host.Services.GetRequiredService<CiceroRuntime>();
        Assert.Equal(3, runtime.GetResource("disk").Capacity);
        Assert.Equal(64, runtime.Registry.MaxWorkflows);
    }

    [Fact]
    public async Task Section_WithBadValues_StopsTheHostStart_NamingEachSettingByItsPath()
    {
        var section = Configuration(new()
        {
            ["Cicero:Core:Admission:QueueLimit"] = "-1",
            ["Cicero:Core:Model:EwmaWeight"] = "1.5",
            ["Cicero:Core:RateAdaptation:HoldTime"] = "00:00:00.010",
            ["Cicero:Resources:0:Name"] = "disk",
            ["Cicero:Resources:0:Capacity"] = "0",
            ["Cicero:DropPolicy"] = "sometimes",
        }).GetSection("Cicero");

        var ex = await Assert.ThrowsAsync<OptionsValidationException>(() => TestHost.StartAsync(s => s.AddCicero(section), _ => { }));

        var message = ex.Message;
        Assert.Contains("Cicero:ServiceName is required", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Resources[0]:Capacity must be at least 1; was 0", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:DropPolicy 'sometimes' is unknown", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Core:Admission:QueueLimit: ", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Core:Model:EwmaWeight: Must be in (0, 1].; was 1.5", message, StringComparison.Ordinal);
        Assert.Contains("Cicero:Core:RateAdaptation:HoldTime: Must be at least one interval.; was 00:00:00.0100000", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task NestedSection_MessagesUseItsPath()
    {
        var section = Configuration(new() { ["Services:Edge:Cicero:Resources:0:Capacity"] = "0" }).GetSection("Services:Edge:Cicero");

        var ex = await Assert.ThrowsAsync<OptionsValidationException>(() => TestHost.StartAsync(s => s.AddCicero(section), _ => { }));

        Assert.Contains("Services:Edge:Cicero:ServiceName is required", ex.Message, StringComparison.Ordinal);
        Assert.Contains("Services:Edge:Cicero:Resources[0]:Name is required", ex.Message, StringComparison.Ordinal);
    }

    private static IConfigurationRoot Configuration(Dictionary<string, string?> values) =>
        new ConfigurationBuilder().AddInMemoryCollection(values).Build();
}
