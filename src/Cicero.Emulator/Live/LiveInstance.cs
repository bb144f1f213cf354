// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Net;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;
using Cicero.Emulator.Workloads;
using Cicero.Grpc.Classification;
using Cicero.Grpc.Context;
using Cicero.Grpc.RateExchange;
using Cicero.Resources;
using Cicero.Runtime;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Cicero.Emulator.Live;

/// <summary>
/// One emulated instance as a real gRPC server: a Grpc.AspNetCore service (<see cref="LiveNodeService"/>, generated
/// from <c>Protos/node.proto</c>) on Kestrel with <c>AddCicero</c>, whose global interceptor admits and propagates
/// context, Cicero's rate exchange and the <c>grpc.health.v1</c> service. Its resources are Core semaphores under the
/// configuration's scheduler, its plan steps run with real delays, and its calls go through
/// <see cref="LiveDownstreams"/>' channels.
/// </summary>
internal sealed partial class LiveInstance : IAsyncDisposable
{
    private readonly LiveTopology _topology;
    private readonly ConfigurationSpec _configuration;
    private readonly Lock _randomLock = new();
    private readonly Random _random;
    private readonly int _seed;
    private WebApplication? _app;
    private LiveDownstreams? _downstreams;
    private int _disposed;
    private long _served;

    public LiveInstance(LiveTopology topology, ServiceDef service, int index, ConfigurationSpec configuration, int seed)
    {
        _topology = topology;
        Service = service;
        Index = index;
        _configuration = configuration;
        _seed = seed;
        _random = new Random(seed);
    }

    public ServiceDef Service { get; }

    public int Index { get; }

    public Uri Address { get; private set; } = null!;

    public CiceroRuntime Runtime { get; private set; } = null!;

    public ResourceSemaphore[] Resources { get; private set; } = [];

    public string Name => Service.Name + "-" + Index.ToString(CultureInfo.InvariantCulture);

    /// <summary>Gets or sets the service-time factor of an injected <c>slow</c> fault; 1 without one.</summary>
    public double FaultFactor { get; set; } = 1;

    /// <summary>Gets the ports this instance listens on and exchanges rates on (<see cref="LiveRunnerOptions"/>).</summary>
    public LivePorts Ports { get; init; } = LivePorts.Default;

    /// <summary>Gets how many calls this instance has been asked to execute since it started.</summary>
    public long Served => Volatile.Read(ref _served);

    /// <summary>Starts the server: on an ephemeral loopback port, or on the port of its configured address.</summary>
    /// <param name="address">The address other processes reach it at, or <see langword="null"/> for a loopback port.</param>
    /// <param name="listenHost">The interface to listen on when an address is given.</param>
    public async Task StartAsync(Uri? address, string listenHost)
    {
        // No configuration file is read, so none is watched: by default every instance would watch the working
        // directory (the repository, or /tmp) recursively for appsettings.json changes, one inotify watcher each.
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions
        {
            Args = ["--hostBuilder:reloadConfigOnChange=false"],
            ContentRootPath = AppContext.BaseDirectory,
        });
        builder.Logging.ClearProviders();
        builder.Services.AddSingleton<IHostLifetime, EmbeddedHostLifetime>();
        var ip = address is null ? IPAddress.Loopback : IPAddress.Parse(listenHost);
        builder.WebHost.ConfigureKestrel(k => Ports.Listen(k, ip, address));
        Ports.AddRateSource(builder.Services);
        var isEntry = _topology.Compiled.Workflows.Any(w => w.Entry == Service);
        builder.Services.AddCicero(o =>
        {
            o.ServiceName = Service.Name;
            o.InstanceId = address is null ? null : InstanceIds.FromAddress(address);
            o.IsEntryPoint = isEntry;
            o.Classifier = WorkflowClassifiers.ByHeader(LiveTopology.WorkflowHeader);
            o.DeadlineSelector = (_, workflow) => _topology.DeadlineOf(workflow);
            o.RateLimitPolicy = _configuration.RateControl ? _configuration.RateLimitPolicy : "pass-through";
            o.DropPolicy = _configuration.DropPolicy;
            o.Core.RateAdaptation.Quantile = _configuration.Quantile;
            o.Core.RateAdaptation.DownstreamHeadroom = _configuration.DownstreamHeadroom;
            o.Core.RateAdaptation.Interval = TimeSpan.FromMilliseconds(_configuration.ControlIntervalMs);
            o.Core.RateAdaptation.QueryTimeout = TimeSpan.FromMilliseconds(_configuration.ControlIntervalMs * 0.8);
            o.Core.Admission.QueueLimit = _configuration.AdmissionQueueLimit;

            // Started in Connect, once every instance's address (and so every downstream list) is known.
            o.RateExchange.RunControlLoop = false;
            foreach (var resource in Service.Resources)
            {
                o.Resources.Add(new Grpc.Configuration.CiceroResourceOptions
                {
                    Name = resource.Name!,
                    Capacity = resource.Capacity,
                    MaxQueueLength = resource.MaxQueueLength,
                    Scheduler = _configuration.Scheduler,
                    DropExpiredWaiters = _configuration.DropExpiredSubtasks,
                });
            }
        });
        builder.Services.AddSingleton(_topology.Catalog);
        builder.Services.AddSingleton(new LiveNodeService(this));
        // SERVING once Connect has made the clients: a call that arrives earlier could not reach its callees.
        builder.Services.AddGrpcHealthChecks().AddCheck("connected", () => Volatile.Read(ref _downstreams) is null
            ? HealthCheckResult.Unhealthy("not connected to its downstream services yet")
            : HealthCheckResult.Healthy());
        _app = builder.Build();
        _app.MapGrpcService<LiveNodeService>();
        _app.MapCiceroRateExchange();
        _app.MapGrpcHealthChecksService();
        await _app.StartAsync().ConfigureAwait(false);

        var listening = _app.Urls.FirstOrDefault() ?? throw new InvalidOperationException($"{Name} has no address.");
        Address = address ?? new Uri(listening.Replace("[::]", "127.0.0.1", StringComparison.Ordinal));
        Runtime = _app.Services.GetRequiredService<CiceroRuntime>();
        Resources = [.. Service.Resources.Select(r => Runtime.GetResource(r.Name!))];
    }

    /// <summary>Makes the clients of the services this one calls, and starts rate adaptation.</summary>
    /// <param name="addresses">Every instance's address, by service index then instance index.</param>
    public void Connect(IReadOnlyList<Uri?[]> addresses)
    {
        var id = InstanceIds.FromAddress(Address);
        var downstreams = new LiveDownstreams(_topology, Service, addresses, Runtime, id, SeedStreams.Derive(_seed, SeedStreams.Selectors));
        foreach (var callee in Service.Callees)
        {
            var targets = addresses[callee.Index];
            for (var i = 0; i < targets.Length; i++)
            {
                _ = targets[i] ?? throw new InvalidOperationException($"{Name} calls {callee.Name}-{i}, which is neither hosted here nor given an address.");
            }

            Runtime.RateAdaptation.SetDownstreamInstances(callee.Name, targets.Select(t => InstanceIds.FromAddress(t!)));
        }

        Runtime.Options.RateAdaptation.ProcessId = id;
        if (_configuration.RateControl)
        {
            Runtime.RateAdaptation.Start();
        }

        Volatile.Write(ref _downstreams, downstreams);
    }

    /// <summary>Kills the instance: its server stops at once, aborting the calls it serves (an injected <c>kill</c>).</summary>
    public async Task KillAsync()
    {
        if (_app is not null)
        {
            await _app.StopAsync(new CancellationToken(canceled: true)).ConfigureAwait(false);
        }

        await DisposeAsync().ConfigureAwait(false);
    }

    /// <summary>How long stopping waits for requests still running.</summary>
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(2);

    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        if (_app is not null)
        {
            // Requests still running here belong to callers that have given up (the run is over): do not wait them out.
            using var drain = new CancellationTokenSource(StopTimeout);
            await _app.StopAsync(drain.Token).ConfigureAwait(false);
        }

        _downstreams?.Dispose();
        if (_app is not null)
        {
            await _app.DisposeAsync().ConfigureAwait(false);
        }
    }

    private TimeSpan Sample(TimeDistribution distribution)
    {
        lock (_randomLock)
        {
            return TimeSpan.FromSeconds(distribution.SampleSeconds(_random) * FaultFactor);
        }
    }

    private int NextRandom(int exclusiveMax)
    {
        lock (_randomLock)
        {
            return _random.Next(exclusiveMax);
        }
    }
}
