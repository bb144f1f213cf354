// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;
using Xunit.Abstractions;

namespace Cicero.Emulator.Tests.Traces;

[Collection(LargeTraces.Name)]
public sealed class TraceMemoryTests(ITestOutputHelper output)
{
    private const long MB = 1 << 20;

    [Fact]
    public void Read_10MbAnd50Mb_AllocationsDoNotGrowWithSize()
    {
        using var dir = new TempDirectory();
        var smallCount = SyntheticTraces.WriteCicero(dir.File("small.csv"), 10 * MB, seed: 1);
        var largeCount = SyntheticTraces.WriteCicero(dir.File("large.csv"), 50 * MB, seed: 2);
        Read(dir.File("small.csv")); // warm up the JIT and the array pool

        var small = Read(dir.File("small.csv"));
        var large = Read(dir.File("large.csv"));

        output.WriteLine($"10 MB: {small.Count} requests, {small.Allocated} B allocated; 50 MB: {large.Count} requests, {large.Allocated} B allocated");
        Assert.Equal(smallCount, small.Count);
        Assert.Equal(largeCount, large.Count);
        Assert.True(large.Count > 4 * small.Count);
        Assert.True(large.Allocated < 256 * 1024, $"reading 50 MB allocated {large.Allocated} B");
        Assert.True(Math.Abs(large.Allocated - small.Allocated) < 16 * 1024, $"10 MB: {small.Allocated} B, 50 MB: {large.Allocated} B");
    }

    [Fact]
    public void Replay_10MbAnd50Mb_AllocationsDoNotGrowWithSize()
    {
        using var dir = new TempDirectory();
        SyntheticTraces.WriteCicero(dir.File("small.csv"), 10 * MB, seed: 3);
        SyntheticTraces.WriteCicero(dir.File("large.csv"), 50 * MB, seed: 4);
        Replay(dir.File("small.csv"));

        var small = Replay(dir.File("small.csv"));
        var large = Replay(dir.File("large.csv"));

        output.WriteLine($"plan + stream, 10 MB: {small.Count} requests, {small.Allocated} B allocated; 50 MB: {large.Count} requests, {large.Allocated} B");
        Assert.True(large.Allocated < 1024 * 1024, $"replaying 50 MB allocated {large.Allocated} B");
        Assert.True(Math.Abs(large.Allocated - small.Allocated) < 64 * 1024, $"10 MB: {small.Allocated} B, 50 MB: {large.Allocated} B");
    }

    [Fact]
    public void ImportMetaBlock_2MbAnd20Mb_RetainedMemoryDoesNotGrow()
    {
        using var dir = new TempDirectory();
        SyntheticTraces.WriteMetaBlock(dir.File("small.csv"), 2 * MB, seed: 5);
        var rows = SyntheticTraces.WriteMetaBlock(dir.File("large.csv"), 20 * MB, seed: 6);

        var small = PeakRetainedWhileImporting(dir.File("small.csv"));
        var large = PeakRetainedWhileImporting(dir.File("large.csv"));

        output.WriteLine($"meta-block import, peak live heap: 2 MB input {small / 1024} KiB, 20 MB input ({rows} rows) {large / 1024} KiB");
        Assert.True(large - small < 2 * MB, $"2 MB: {small} B, 20 MB: {large} B");
    }

    /// <summary>The README's measurement: <c>CICERO_TRACE_MEASURE_MB=1024</c>, see traces/README.md.</summary>
    [MeasureFact]
    public void Measure_GeneratedTrace_ReadAndReplayInConstantMemory()
    {
        var megabytes = long.Parse(Environment.GetEnvironmentVariable(LargeTraces.MeasureVariable)!, CultureInfo.InvariantCulture);
        using var dir = new TempDirectory();
        var path = dir.File("measure.csv");
        var start = TimeProvider.System.GetTimestamp();
        var written = SyntheticTraces.WriteCicero(path, megabytes * MB, seed: 7);
        var writeTime = TimeProvider.System.GetElapsedTime(start);
        var bytes = new FileInfo(path).Length;
        GC.Collect();
        using var process = Process.GetCurrentProcess();
        process.Refresh();
        var before = process.WorkingSet64;

        start = TimeProvider.System.GetTimestamp();
        var read = Read(path);
        var readTime = TimeProvider.System.GetElapsedTime(start);
        start = TimeProvider.System.GetTimestamp();
        var replay = Replay(path);
        var replayTime = TimeProvider.System.GetElapsedTime(start);
        process.Refresh();

        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"""
            trace: {bytes / (double)MB:F0} MB, {written} requests, written in {writeTime.TotalSeconds:F1} s
            read (TraceReader): {readTime.TotalSeconds:F1} s ({bytes / (double)MB / readTime.TotalSeconds:F0} MB/s), {read.Allocated} B allocated
            replay (plan pass + request stream pass): {replayTime.TotalSeconds:F1} s, {replay.Allocated} B allocated
            process working set before reading: {before / MB} MB; peak over the whole test process: {process.PeakWorkingSet64 / MB} MB; GC heap now {GC.GetGCMemoryInfo().HeapSizeBytes / MB} MB
            """));
        Assert.Equal(written, read.Count);
        Assert.Equal(written, replay.Count);
        Assert.True(read.Allocated < 256 * 1024);
    }

    private static (long Count, long Allocated) Read(string path)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        long count = 0;
        using (var reader = TraceReader.Open(path))
        {
            while (reader.TryRead(out _))
            {
                count++;
            }
        }

        return (count, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    private static (long Count, long Allocated) Replay(string path)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        var plan = TraceReplayPlanner.Create(TraceReader.ReadFile(path));
        long count = 0;
        double work = 0;
        foreach (var request in plan.Requests)
        {
            count++;
            work += request.Costs.BsMs * request.Costs.FanOut;
        }

        Assert.True(work > 0);
        Assert.Equal(plan.RequestCount, count);
        return (count, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    private static long PeakRetainedWhileImporting(string path)
    {
        GC.Collect();
        var baseline = GC.GetTotalMemory(forceFullCollection: true);
        var length = new FileInfo(path).Length;
        long peak = 0, next = 0;
        using var stream = File.OpenRead(path);
        foreach (var request in new MetaBlockTraceImporter().Import(stream, path))
        {
            // Sample the live heap (after a full collection) at ten points spread over the input.
            if (stream.Position >= next)
            {
                peak = Math.Max(peak, GC.GetTotalMemory(forceFullCollection: true) - baseline);
                next += length / 10;
            }
        }

        return peak;
    }
}
