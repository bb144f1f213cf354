// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Security.Cryptography;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using OpenTelemetry.Metrics;

namespace Cicero.SampleService;

/// <summary>
/// Starts the catalog and the storefront on free loopback ports, calls each through an <see cref="Grpc.Client.RpcChannel"/>,
/// prints what came back, and passes when every call succeeded with a progress trailer and rate exchange is fresh.
/// </summary>
public static class SelfTest
{
    private const string Loopback = "http://127.0.0.1:0";
    private static readonly TimeSpan RateExchangePatience = TimeSpan.FromSeconds(5);

    /// <summary>Runs the self-test.</summary>
    /// <param name="calls">Calls per service.</param>
    /// <param name="output">Where the summary goes.</param>
    /// <param name="cancellationToken">Stops the run.</param>
    /// <returns>0 when it passed, 1 otherwise.</returns>
    public static async Task<int> RunAsync(int calls, TextWriter output, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(output);
        var metrics = new MetricTotals();
        var spans = new SpanCounter();
        using var telemetry = SampleTelemetry.Start(new BaseExportingMetricReader(metrics), spans);
        var token = Convert.ToHexString(RandomNumberGenerator.GetBytes(16));

        await using var catalog = await RunningService.StartAsync(
            Program.BuildCatalog(new ServerSettings { Urls = Loopback, Internal = true, RateExchangeToken = token, Quiet = true }),
            cancellationToken);
        await using var storefront = await RunningService.StartAsync(
            StorefrontServer.Build(new ServerSettings { Urls = Loopback, RateExchangeToken = token, CatalogAddresses = [catalog.Address.ToString()], Quiet = true }),
            cancellationToken);
        output.WriteLine($"catalog on {catalog.Address} (internal), storefront on {storefront.Address} (entry point); cleartext HTTP/2");

        var direct = await SampleClient.RunAsync(catalog.Address, calls, storefront: false, "tenant-a", cancellationToken);
        output.WriteLine($"client -> catalog              GetItem x {calls}: {direct}");
        var chained = await SampleClient.RunAsync(storefront.Address, calls, storefront: true, "tenant-b", cancellationToken);
        output.WriteLine($"client -> storefront -> catalog GetPage x {calls}: {chained}");

        var catalogRuntime = catalog.App.Services.GetRequiredService<CiceroRuntime>();
        var storefrontRuntime = storefront.App.Services.GetRequiredService<CiceroRuntime>();
        var fresh = await WaitForFreshRatesAsync(storefrontRuntime, cancellationToken);
        storefrontRuntime.Model.Get("tenant-b").TryGetAmplification("catalog", out var amplification);
        output.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"admission rates: catalog tenant-a {Rate(catalogRuntime, "tenant-a")}, tenant-b {Rate(catalogRuntime, "tenant-b")}; " +
            $"storefront tenant-b {Rate(storefrontRuntime, "tenant-b")} (amplification to catalog {amplification:F1}, rate exchange {storefrontRuntime.RateAdaptation.GetDownstreamStatus("catalog")})"));

        telemetry.Flush();
        output.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"OpenTelemetry (both services): {spans.Count} Cicero spans, cicero.requests.admitted = {metrics.Get("cicero.requests.admitted")}, " +
            $"cicero.resource.service.duration samples = {metrics.Get("cicero.resource.service.duration")}"));

        var passed = direct.Ok == calls && direct.LastProgress is not null && chained.Ok == calls && chained.LastProgress is not null && fresh;
        output.WriteLine(passed ? "self-test passed" : "self-test FAILED");
        return passed ? 0 : 1;
    }

    private static string Rate(CiceroRuntime runtime, string workflow)
    {
        var rate = runtime.Admission.GetRate(workflow);
        return double.IsPositiveInfinity(rate) ? "unlimited" : string.Create(CultureInfo.InvariantCulture, $"{rate:F0}/s");
    }

    private static async Task<bool> WaitForFreshRatesAsync(CiceroRuntime storefront, CancellationToken cancellationToken)
    {
        var start = TimeProvider.System.GetTimestamp();
        while (storefront.RateAdaptation.GetDownstreamStatus("catalog") != DownstreamStatus.Fresh)
        {
            if (TimeProvider.System.GetElapsedTime(start) > RateExchangePatience)
            {
                return false;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(50), TimeProvider.System, cancellationToken);
        }

        return true;
    }
}
