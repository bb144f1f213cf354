// SPDX-License-Identifier: Apache-2.0

// The fault proxy (eng/netns): listens on each route's port, forwards every HTTP/2 call to its target port on loopback
// with YARP's forwarder, and delays each request and each response by the one-way delay plus jitter, as Envoy's
// fault-injection filter delays requests. gRPC passes through unchanged (HTTP/2, trailers).
using System.Net;
using Cicero.FaultProxy;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Yarp.ReverseProxy.Forwarder;

ProxyOptions options;
try
{
    options = ProxyOptions.Parse(args);
}
catch (ArgumentException ex)
{
    await Console.Error.WriteLineAsync("fault proxy: " + ex.Message);
    return 2;
}

var builder = WebApplication.CreateSlimBuilder(args: []);
builder.Logging.ClearProviders();
builder.WebHost.ConfigureKestrel(k =>
{
    foreach (var port in options.Routes.Keys)
    {
        k.Listen(IPAddress.Loopback, port, static o => o.Protocols = HttpProtocols.Http2);
    }
});
builder.Services.AddHttpForwarder();
var app = builder.Build();

var time = TimeProvider.System;
var delay = new DelayInjector(options.DelayMs, options.JitterMs, options.Seed, time);
var transformer = new DelayingTransformer(delay);
using var client = new HttpMessageInvoker(new SocketsHttpHandler
{
    UseProxy = false,
    AllowAutoRedirect = false,
    AutomaticDecompression = DecompressionMethods.None,
    UseCookies = false,
    EnableMultipleHttp2Connections = true,
    ActivityHeadersPropagator = null,
    ConnectTimeout = TimeSpan.FromSeconds(5),
});

// Cleartext HTTP/2 to the target, as gRPC speaks it; no fallback to HTTP/1.1.
var request = new ForwarderRequestConfig { Version = HttpVersion.Version20, VersionPolicy = HttpVersionPolicy.RequestVersionExact, ActivityTimeout = TimeSpan.FromSeconds(30) };
var errors = 0;
var forwarder = app.Services.GetRequiredService<IHttpForwarder>();
app.Map("/{**path}", async context =>
{
    var target = options.Routes[context.Connection.LocalPort];
    await delay.WaitAsync(context.RequestAborted);
    var error = await forwarder.SendAsync(context, $"http://127.0.0.1:{target}/", client, request, transformer);
    if (error != ForwarderError.None && Interlocked.Increment(ref errors) <= 20)
    {
        // The first few only: a dead target fails every call the same way.
        await Console.Error.WriteLineAsync($"fault proxy: {context.Request.Path} to port {target}: {error} {context.GetForwarderErrorFeature()?.Exception?.Message}");
    }
});

// Statistics of the delays really applied, every 5 s, so a killed proxy leaves them too.
using var stop = new CancellationTokenSource();
var stats = options.StatsPath is { } path
    ? Task.Run(async () =>
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(5), time);
        try
        {
            while (await timer.WaitForNextTickAsync(stop.Token))
            {
                await File.WriteAllTextAsync(path, $"delays,mean_ms,p50_ms,p99_ms,max_ms,configured_delay_ms,configured_jitter_ms,pid\n{delay.Describe()},{options.DelayMs},{options.JitterMs},{Environment.ProcessId}\n");
            }
        }
        catch (OperationCanceledException)
        {
            // Stopping.
        }
    })
    : Task.CompletedTask;

await app.RunAsync();
await stop.CancelAsync();
await stats;
return 0;
