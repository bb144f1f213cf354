// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Configuration;
using Cicero.Grpc.Context;
using Cicero.Grpc.Hosting;
using Cicero.Grpc.Tests.Infrastructure;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Cicero.Grpc.Tests.Hosting;

/// <summary>Cicero runs on a snapshot of its options taken when they are validated; nothing writes to them later.</summary>
public sealed class OptionsSnapshotTests
{
    [Fact]
    public void Writes_after_validation_reach_no_part_of_Cicero()
    {
        var disk = new CiceroResourceOptions { Name = "disk", Capacity = 4 };
        var services = new ServiceCollection();
        services.AddCicero(o =>
        {
            o.ServiceName = "svc";
            o.InstanceId = "http://127.0.0.1:1";
            o.Core.Admission.QueueLimit = 7;
        })
        .AddResource(disk)
        .AddDownstream("storage", ["http://127.0.0.1:2"]);
        using var provider = services.BuildServiceProvider();
        var runtime = provider.GetRequiredService<CiceroRuntime>();
        var snapshot = provider.GetRequiredService<CiceroGrpcOptions>();

        var configured = provider.GetRequiredService<IOptions<CiceroGrpcOptions>>().Value;
        configured.ServiceName = "other";
        configured.Core.Admission.QueueLimit = -1; // would fail validation, and is never validated
        configured.Downstreams[0].Addresses.Add("http://127.0.0.1:3");
        disk.Capacity = 99;

        Assert.NotSame(configured, snapshot);
        Assert.Equal("svc", snapshot.ServiceName);
        Assert.Equal(7, runtime.Options.Admission.QueueLimit);
        Assert.Same(snapshot.Core, runtime.Options);
        Assert.Equal(4, Assert.Single(snapshot.Resources).Capacity);
        Assert.Equal(["http://127.0.0.1:2"], Assert.Single(snapshot.Downstreams).Addresses);
    }

    [Fact]
    public async Task Starting_the_host_and_its_control_loop_writes_no_option()
    {
        await using var host = await TestHost.StartProbeAsync(o => o.RateExchange.RunControlLoop = true);
        var runtime = host.Services.GetRequiredService<CiceroRuntime>();

        // The instance id, known once the server listens, used to be written into the validated options here.
        Assert.NotEqual(runtime.Options.RateAdaptation.ProcessId, host.Services.GetRequiredService<CiceroInstance>().Id);
        Assert.Equal(new RateAdaptationOptions().ProcessId, runtime.Options.RateAdaptation.ProcessId);
    }

    [Fact]
    public async Task Rate_queries_ask_as_this_instance()
    {
        var transport = new RecordingRateSource();
        using var provider = new ServiceCollection().BuildServiceProvider();
        var instance = new CiceroInstance(new CiceroGrpcOptions { ServiceName = "svc", InstanceId = "http://127.0.0.1:5000" }, provider);
        var source = new InstanceRateSource(transport, instance);

        await source.GetAdmissionRatesAsync(new DownstreamInstance("storage", "http://127.0.0.1:6000"), "local", CancellationToken.None);

        Assert.Equal(instance.Id, Assert.Single(transport.Callers));
    }

    private sealed class RecordingRateSource : IDownstreamRateSource
    {
        public List<string> Callers { get; } = [];

        public ValueTask<DownstreamRateAnswer> GetAdmissionRatesAsync(DownstreamInstance instance, string caller, CancellationToken cancellationToken)
        {
            Callers.Add(caller);
            return ValueTask.FromResult(new DownstreamRateAnswer([]));
        }
    }
}
