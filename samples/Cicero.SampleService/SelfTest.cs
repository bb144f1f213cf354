// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Security.Cryptography;
using Cicero.Grpc;
using Cicero.Grpc.Context;
using Cicero.RateAdaptation;
using Cicero.Runtime;
using Cicero.SampleService.Protos;
using Grpc.Core;
using Grpc.Health.V1;
using Grpc.Net.Client;
using OpenTelemetry.Metrics;

namespace Cicero.SampleService;

/// <summary>
/// Starts the catalog and two storefronts (one whose catalog client comes from <c>AddGrpcClient</c>, one with a channel
/// built by hand) on free loopback ports, checks their health services, calls each, sends a malformed Cicero header,
/// prints what came back, and passes when every call succeeded with a progress trailer, the malformed header was
/// refused with <c>INVALID_ARGUMENT</c>, rate exchange is fresh and OpenTelemetry saw Cicero's spans and metrics.
/// </summary>
public static class SelfTest
{
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
            Program.BuildCatalog(new ServerSettings { Port = 0, Internal = true, RateExchangeToken = token, Quiet = true }),
            cancellationToken);
        var storefrontSettings = new ServerSettings { Port = 0, RateExchangeToken = token, CatalogAddresses = [catalog.Address.ToString()], Quiet = true };
        await using var storefront = await RunningService.StartAsync(StorefrontServer.Build(storefrontSettings), cancellationToken);
        await using var manual = await RunningService.StartAsync(StorefrontServer.Build(storefrontSettings with { ManualChannel = true }), cancellationToken);
        output.WriteLine($"catalog on {catalog.Address} (internal), storefronts on {storefront.Address} (AddGrpcClient) and {manual.Address} (GrpcChannel by hand); cleartext HTTP/2 on 127.0.0.1");

        var healthy = true;
        foreach (var service in new[] { catalog, storefront, manual })
        {
            var status = await CheckHealthAsync(service.Address, cancellationToken);
            healthy &= status == HealthCheckResponse.Types.ServingStatus.Serving;
            output.WriteLine($"grpc.health.v1.Health/Check {service.Address}: {status}");
        }

        var direct = await SampleClient.RunAsync([catalog.Address], calls, storefront: false, "tenant-a", cancellationToken);
        output.WriteLine($"client -> catalog                         GetItem x {calls}: {direct}");
        var chained = await SampleClient.RunAsync([storefront.Address], calls, storefront: true, "tenant-b", cancellationToken);
        output.WriteLine($"client -> storefront -> catalog           GetPage x {calls}: {chained}");
        var chainedManual = await SampleClient.RunAsync([manual.Address], calls, storefront: true, "tenant-b", cancellationToken);
        output.WriteLine($"client -> storefront (by hand) -> catalog GetPage x {calls}: {chainedManual}");

        var malformed = await SendMalformedContextAsync(catalog.Address, cancellationToken);
        output.WriteLine($"malformed {CiceroMetadataKeys.Context} -> catalog: {malformed.StatusCode} ({malformed.Detail})");

        var catalogRuntime = catalog.App.Services.GetRequiredService<CiceroRuntime>();
        var storefrontRuntime = storefront.App.Services.GetRequiredService<CiceroRuntime>();
        var manualRuntime = manual.App.Services.GetRequiredService<CiceroRuntime>();
        var fresh = await WaitForFreshRatesAsync(storefrontRuntime, cancellationToken) & await WaitForFreshRatesAsync(manualRuntime, cancellationToken);
        storefrontRuntime.Model.Get("tenant-b").TryGetAmplification("catalog", out var amplification);
        output.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"admission rates: catalog tenant-a {Rate(catalogRuntime, "tenant-a")}, tenant-b {Rate(catalogRuntime, "tenant-b")}; " +
            $"storefront tenant-b {Rate(storefrontRuntime, "tenant-b")} (amplification to catalog {amplification:F1}, rate exchange " +
            $"{storefrontRuntime.RateAdaptation.GetDownstreamStatus("catalog")}); by hand: tenant-b {Rate(manualRuntime, "tenant-b")}, rate exchange {manualRuntime.RateAdaptation.GetDownstreamStatus("catalog")}"));

        telemetry.Flush();
        var admitted = metrics.Get("cicero.requests.admitted");
        output.WriteLine(string.Create(
            CultureInfo.InvariantCulture,
            $"OpenTelemetry (all services): {spans.Count} Cicero spans, cicero.requests.admitted = {admitted}, " +
            $"cicero.resource.service.duration samples = {metrics.Get("cicero.resource.service.duration")}"));

        var passed = healthy
            && Passed(direct, calls) && Passed(chained, calls) && Passed(chainedManual, calls)
            && malformed.StatusCode == StatusCode.InvalidArgument
            && fresh
            && spans.Count > 0 && admitted > 0;
        output.WriteLine(passed ? "self-test passed" : "self-test FAILED");
        return passed ? 0 : 1;
    }

    private static bool Passed(CallSummary summary, int calls) => summary.Ok == calls && summary.LastProgress is not null;

    private static async Task<HealthCheckResponse.Types.ServingStatus> CheckHealthAsync(Uri address, CancellationToken cancellationToken)
    {
        using var channel = GrpcChannel.ForAddress(address);
        var response = await new Health.HealthClient(channel).CheckAsync(new HealthCheckRequest(), deadline: DateTime.UtcNow.AddSeconds(5), cancellationToken: cancellationToken);
        return response.Status;
    }

    /// <summary>Calls the internal catalog, which trusts <c>cicero-ctx-bin</c>, with a value that is not a context.</summary>
    private static async Task<Status> SendMalformedContextAsync(Uri address, CancellationToken cancellationToken)
    {
        using var channel = GrpcChannel.ForAddress(address);
        var headers = new Metadata { { CiceroMetadataKeys.Context, new byte[] { 0xFF, 0x00, 0x42 } } };
        try
        {
            await new Catalog.CatalogClient(channel).GetItemAsync(new GetItemRequest { Id = "sku-0" }, headers, DateTime.UtcNow.AddSeconds(5), cancellationToken);
            return Status.DefaultSuccess;
        }
        catch (RpcException e)
        {
            return e.Status;
        }
    }

    private static string Rate(CiceroRuntime runtime, string workflow)
    {
        var rate = runtime.Admission.GetProperties(workflow).Rate;
        return double.IsPositiveInfinity(rate) ? "unlimited" : string.Create(CultureInfo.InvariantCulture, $"{rate:F0}/s");
    }

    private static async Task<bool> WaitForFreshRatesAsync(CiceroRuntime storefront, CancellationToken cancellationToken)
    {
        // Bounded polling: rate exchange runs on its own interval and raises no event to await.
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
