// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Emulator.Live;
using Cicero.Emulator.Scenarios;
using Cicero.Grpc.RateExchange;
using Cicero.RateAdaptation;

namespace Cicero.Emulator.Tests.Live;

/// <summary>
/// The live runner's options for runs spread over processes (eng/netns): rate exchange on a port of its own, and the
/// per-second monitor file. Two runners in this process stand for the processes, on loopback.
/// </summary>
[Collection(LiveRuns.Name)]
public sealed class LiveProcessOptionsTests
{
    private const string Scenario = """
        {
          "name": "live-processes",
          "seed": 3,
          "durationSeconds": 4,
          "warmUpSeconds": 1,
          "network": {"rpcTimeoutMs": 5000},
          "services": [
            {"name": "fe", "instances": 1, "resources": [{"name": "threads", "kind": "thread-pool", "capacity": 64}]},
            {"name": "bs", "instances": 2, "resources": [{"name": "disk", "kind": "disk", "capacity": 4}]}
          ],
          "routes": [{"from": "fe", "to": "bs", "strategy": "round-robin"}],
          "workflows": [{"name": "reads", "stages": [{"call": "bs", "stages": [{"use": "disk", "serviceTime": {"distribution": "constant", "meanMs": 2}}]}]}],
          "workloads": [{"workflow": "reads", "kind": "poisson", "ratePerSecond": 60}],
          "configurations": [{"name": "rc", "rateControl": true}]
        }
        """;

    [Fact]
    public async Task Rate_exchange_on_its_own_port_answers_there_and_the_monitor_records_every_instance()
    {
        var scenario = ScenarioLoader.Parse(Scenario);
        var configuration = scenario.Configurations![0];
        var (ports, offset) = PortsWithFreeOffset(2);
        var addresses = ports.Select(p => $"http://127.0.0.1:{p}").ToList();
        var folder = Directory.CreateTempSubdirectory("cicero-monitor-");
        try
        {
            var nodes = new LiveRunnerOptions
            {
                HostedInstances = new HashSet<string> { "bs-0", "bs-1" },
                RateExchangePortOffset = offset,
                MonitorPath = Path.Combine(folder.FullName, "bs.csv"),
            };
            nodes.Addresses["bs"] = addresses;
            using var stopNodes = new CancellationTokenSource(TimeSpan.FromSeconds(50));
            var hosting = new LiveTopologyRunner(scenario, configuration, options: nodes).HostAsync(stopNodes.Token);

            var driver = new LiveRunnerOptions { RateExchangePortOffset = offset, MonitorPath = Path.Combine(folder.FullName, "driver.csv") };
            driver.Addresses["bs"] = addresses;
            var result = await new LiveTopologyRunner(scenario, configuration, options: driver).RunAsync(stopNodes.Token);

            // The block servers answer rate exchange on the offset port (the driver's front end asks there).
            using var source = new GrpcDownstreamRateSource();
            var answer = await source.GetAdmissionRatesAsync(
                new DownstreamInstance("bs", $"http://127.0.0.1:{ports[0] + offset}"), "http://127.0.0.1:1", stopNodes.Token);
            Assert.NotNull(answer);

            await stopNodes.CancelAsync();
            await hosting;

            Assert.True(result["reads"].CompletedFraction > 0.95, $"completed {result["reads"].CompletedFraction:P1}");
            var bs = await File.ReadAllLinesAsync(nodes.MonitorPath);
            var served = bs.Select(l => l.Split(',')).Where(f => f[2] == "served").GroupBy(f => f[1])
                .ToDictionary(g => g.Key, g => g.Max(f => double.Parse(f[3], CultureInfo.InvariantCulture)));
            Assert.Equal(["bs-0", "bs-1"], served.Keys.Order());
            // Every request completed in the measured window was served by a block server (the counts also hold the warm-up's).
            Assert.True(served.Values.Sum() >= result["reads"].Completed, $"served {served.Values.Sum()}, completed {result["reads"].Completed}");
            Assert.Contains(bs, l => l.Contains(",bs-0,sigma:reads,", StringComparison.Ordinal));
            Assert.Contains(bs, l => l.Contains(",rss-bytes,", StringComparison.Ordinal));
            var driverLines = await File.ReadAllLinesAsync(driver.MonitorPath);
            Assert.Single(driverLines, l => l.Contains(",driver,start,", StringComparison.Ordinal));
            Assert.Contains(driverLines, l => l.Contains(",fe-0,served,", StringComparison.Ordinal));
        }
        finally
        {
            folder.Delete(recursive: true);
        }
    }

    /// <summary>Free ports, and an offset at which each has a free port too.</summary>
    private static (int[] Ports, int Offset) PortsWithFreeOffset(int count)
    {
        for (var attempt = 0; ; attempt++)
        {
            var ports = Enumerable.Range(0, count).Select(_ => FreePort()).ToArray();
            var offset = FreePort() - ports[0];
            if (offset > 0 && ports.Skip(1).All(p => IsFree(p + offset)) || attempt == 50)
            {
                return (ports, offset);
            }
        }
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        return ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    }

    private static bool IsFree(int port)
    {
        if (port is <= 0 or > 65535)
        {
            return false;
        }

        try
        {
            using var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, port);
            listener.Start();
            return true;
        }
        catch (System.Net.Sockets.SocketException)
        {
            return false;
        }
    }
}
