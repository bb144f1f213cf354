// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;
using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Benchmarks.Simulator;

/// <summary>
/// The simulator's speed (docs/performance.md): events per second on the main job (the default scenario, 60 s of load,
/// its three configurations; <c>main-warm</c> runs it twice and times the second, leaving out the JIT's warm-up) and on a
/// search-style graph scaled 1x, 4x and 16x, and the peak memory of a run ten times longer. Each case runs in a child
/// process of its own, so its peak resident set (VmHWM) is its own. Figures are wall time and the process's CPU time
/// (all threads: JIT and GC included); on a shared machine the CPU figure is the one to compare.
/// </summary>
internal static class SimulatorSpeed
{
    /// <summary>The cases <c>simulator</c> runs by default, in order.</summary>
    public static readonly string[] DefaultCases = ["main", "main-warm", "search-1x", "search-4x", "search-16x", "search-1x-long"];

    /// <summary>Runs each case in a child process and prints one line per case, then the ratios the targets are about.</summary>
    public static void Run(IReadOnlyList<string> cases)
    {
        var results = new Dictionary<string, CaseResult>(StringComparer.Ordinal);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"load average at start: {LoadAverage()}"));
        foreach (var name in cases)
        {
            var start = new ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardOutput = true, UseShellExecute = false };
            if (!string.Equals(Path.GetFileNameWithoutExtension(Environment.ProcessPath), "Cicero.Benchmarks", StringComparison.Ordinal))
            {
                start.ArgumentList.Add(typeof(SimulatorSpeed).Assembly.Location);
            }

            start.ArgumentList.Add("simulator-case");
            start.ArgumentList.Add(name);
            using var child = Process.Start(start)!;
            var line = child.StandardOutput.ReadToEnd().Trim();
            child.WaitForExit();
            var result = CaseResult.Parse(line);
            results[name] = result;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{name,-16} {result.Events,12:N0} events in {result.Seconds,6:F2} s wall = {result.EventsPerSecond / 1e6,5:F2} M events/s; {result.CpuSeconds,6:F2} s of CPU = {result.EventsPerCpuSecond / 1e6,5:F2} M events/CPU-s; peak RSS {result.PeakMegabytes,4:F0} MB (load {LoadAverage()})"));
        }

        if (results.TryGetValue("search-1x", out var one) && results.TryGetValue("search-16x", out var sixteen))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"cost per event at 16x / at 1x: {one.EventsPerSecond / sixteen.EventsPerSecond:F2} (wall), {one.EventsPerCpuSecond / sixteen.EventsPerCpuSecond:F2} (CPU)"));
        }

        if (results.TryGetValue("search-1x", out var shortRun) && results.TryGetValue("search-1x-long", out var longRun))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"peak RSS of a 10x longer run / the run: {longRun.PeakMegabytes / shortRun.PeakMegabytes:F2}"));
        }
    }

    /// <summary>Runs one case in this process and prints its line (events, seconds, peak RSS in KB).</summary>
    /// <param name="name">The case.</param>
    /// <param name="allocations">Whether to list the types allocated most (on standard error).</param>
    public static void RunCase(string name, bool allocations = false)
    {
        using var types = allocations ? new AllocationTypes() : null;
        var scenario = name switch
        {
            "main" or "main-warm" => MainJob(),
            "search-1x" => SearchGraph.Create(1, 20),
            "search-4x" => SearchGraph.Create(4, 20),
            "search-16x" => SearchGraph.Create(16, 20),
            "search-1x-long" => SearchGraph.Create(1, 200),
            _ => throw new ArgumentException($"Unknown simulator case '{name}'; the cases are {string.Join(", ", DefaultCases)}.", nameof(name)),
        };
        if (name == "main-warm")
        {
            // The same job once before the measured one: the figure leaves out the JIT's warm-up.
            foreach (var configuration in scenario.Configurations!)
            {
                new TopologySimulation(scenario, configuration).Run();
            }
        }

        using var self = Process.GetCurrentProcess();
        var cpu = self.TotalProcessorTime;
        var allocated = GC.GetTotalAllocatedBytes();
        var watch = Stopwatch.StartNew();
        long events = 0;
        foreach (var configuration in scenario.Configurations!)
        {
            events += new TopologySimulation(scenario, configuration).Run().Events;
        }

        var seconds = watch.Elapsed.TotalSeconds;
        self.Refresh();
        var cpuSeconds = (self.TotalProcessorTime - cpu).TotalSeconds;
        types?.Print(Console.Error, 30);
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  allocated {(GC.GetTotalAllocatedBytes() - allocated) / (double)events:F0} B per event, {GC.CollectionCount(0)} gen0 / {GC.CollectionCount(1)} gen1 / {GC.CollectionCount(2)} gen2 collections"));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{events} {seconds:R} {cpuSeconds:R} {PeakKilobytes()}"));
    }

    private static ScenarioSpec MainJob()
    {
        var scenario = ScenarioLoader.LoadDefault();
        scenario.DurationSeconds = 60;
        return scenario;
    }

    private static long PeakKilobytes()
    {
        foreach (var line in File.ReadLines("/proc/self/status"))
        {
            if (line.StartsWith("VmHWM:", StringComparison.Ordinal))
            {
                return long.Parse(line["VmHWM:".Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);
            }
        }

        return 0;
    }

    private static string LoadAverage() =>
        File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "unknown";

    private sealed record CaseResult(long Events, double Seconds, double CpuSeconds, long PeakKilobytes)
    {
        public double EventsPerSecond => Events / Seconds;

        public double EventsPerCpuSecond => Events / CpuSeconds;

        public double PeakMegabytes => PeakKilobytes / 1024.0;

        public static CaseResult Parse(string line)
        {
            var parts = line.Split(' ');
            return new CaseResult(
                long.Parse(parts[0], CultureInfo.InvariantCulture),
                double.Parse(parts[1], CultureInfo.InvariantCulture),
                double.Parse(parts[2], CultureInfo.InvariantCulture),
                long.Parse(parts[3], CultureInfo.InvariantCulture));
        }
    }
}
