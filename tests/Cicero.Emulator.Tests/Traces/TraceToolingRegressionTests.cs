// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;
using Cicero.Emulator.Traces.Replay;

namespace Cicero.Emulator.Tests.Traces;

/// <summary>One test per trace-tooling defect found on traces the other tests never saw (issue 20).</summary>
public sealed class TraceToolingRegressionTests
{
    private const string KvHeader = "key,op,size,op_count,key_size,usecase,op_time";
    private static readonly ConfigurationSpec Baseline = new() { Name = "baseline", RateControl = false, Scheduler = "fifo", DropPolicy = "never" };

    [Fact]
    public void SimulatedReplay_SpeedUp_ScalesThePerSecondFigures()
    {
        // 400 requests about 20 ms apart: 8 s of trace, lightly loaded, so the drain after the last arrival is short.
        var plan = TraceReplayPlanner.Create(SimulatedReplayTests.Generate(400, seed: 11));

        var recorded = SimulatedReplay.Run(plan, Baseline);
        var faster = SimulatedReplay.Run(plan, Baseline, new SimulatedReplayOptions { SpeedUp = 4 });

        var offered = faster.Workflows.Sum(w => w.OfferedRate) / recorded.Workflows.Sum(w => w.OfferedRate);
        var throughput = faster.Workflows.Sum(w => w.Throughput) / recorded.Workflows.Sum(w => w.Throughput);
        Assert.InRange(offered, 3.2, 4.4);
        Assert.InRange(throughput, 3.2, 4.4);
        var busiest = faster.Resources.Max(r => r.Mean) / recorded.Resources.Max(r => r.Mean);
        Assert.True(busiest > 2.5, $"utilisation rose only {busiest:F2}x at 4x the load");
    }

    [Fact]
    public void SimulatedReplay_RecordsLatenciesInHistograms_NotOneSamplePerRequest()
    {
        var plan = TraceReplayPlanner.Create(SimulatedReplayTests.Generate(300, seed: 12));

        var result = SimulatedReplay.Run(plan, Baseline);

        Assert.All(result.Workflows, w =>
        {
            Assert.Empty(w.LatenciesMs);
            Assert.Equal(w.Completed, w.LatencyMs.Count);
            Assert.True(w.Completed == 0 || (w.LatencyMs.P50 > 0 && w.LatencyMs.P99 <= w.LatencyMs.Max));
        });
    }

    [Fact]
    public void Import_FailingHalfWay_LeavesTheOutputAsItWasAndNoTemporaryFile()
    {
        using var directory = new TempDirectory();
        var input = directory.Write("kv.csv", $"{KvHeader}\nk1,GET,10,1,8,1,100\nk2,GET,10,1,8,1,101\nk3,GET,10,x,8,1,102\n");
        var output = directory.Write("out.trace", "an earlier, complete trace");

        var error = Assert.Throws<TraceFormatException>(() => TraceImport.Run(TraceImport.MetaKv, input, output));

        Assert.Equal(4, error.Line);
        Assert.Equal("an earlier, complete trace", File.ReadAllText(output));
        Assert.Equal(["kv.csv", "out.trace"], Directory.GetFiles(directory.Path).Select(Path.GetFileName).Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Import_HeaderOnly_FailsAndWritesNothing()
    {
        using var directory = new TempDirectory();
        var input = directory.Write("kv.csv", KvHeader + "\n");
        var output = directory.File("out.trace");

        var error = Assert.Throws<TraceFormatException>(() => TraceImport.Run(TraceImport.MetaKv, input, output));

        Assert.Contains("no requests", error.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(output));
        Assert.Single(Directory.GetFiles(directory.Path));
    }

    [Fact]
    public void Replay_HeaderOnlyTrace_IsATraceErrorNotACrash()
    {
        using var directory = new TempDirectory();
        var path = directory.File("empty.trace");
        using (var stream = File.Create(path))
        using (var writer = new TraceWriter(stream, new TraceHeader(new Dictionary<string, string>())))
        {
            writer.Flush();
        }

        var error = Assert.Throws<TraceFormatException>(() => TraceReplayPlanner.Create(TraceReader.ReadFile(path)));

        Assert.Contains("no requests", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(TraceImport.MetaKv, KvHeader + "\nk1,GET,10,2000000000,8,1,100\n")]
    [InlineData(TraceImport.MetaBlock, "op_time,block_id,io_size,op_name,op_count,user_name\n100,b,4096,getChunkData.Permanent,2000000000,1\n")]
    public void Import_HugeOpCount_IsBoundedBeforeAllocating(string format, string text)
    {
        using var directory = new TempDirectory();
        var input = directory.Write("in.csv", text);

        var error = Assert.Throws<TraceFormatException>(() => TraceImport.Run(format, input, directory.File("out.trace")));

        Assert.Equal("op_count", error.Field);
        Assert.Contains("1,000,000", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Import_BinaryField_IsNotEchoedRaw()
    {
        using var directory = new TempDirectory();
        var input = directory.File("binary.csv");
        File.WriteAllBytes(input, [.. System.Text.Encoding.ASCII.GetBytes(KvHeader + "\nk1,GET,10,1,8,1,"), 0x1b, (byte)'[', (byte)'2', (byte)'J', 0x00, 0xff, 0x07, (byte)'\n']);

        var error = Assert.Throws<TraceFormatException>(() => TraceImport.Run(TraceImport.MetaKv, input, directory.File("out.trace")));

        Assert.All(error.Message, c => Assert.InRange(c, ' ', '~'));
        Assert.Contains("\\u001b", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Import_BinaryHeader_IsNotEchoedRaw()
    {
        using var directory = new TempDirectory();
        var input = directory.File("binary.csv");
        File.WriteAllBytes(input, [0x1b, (byte)']', (byte)'0', (byte)';', 0x07, 0x00, (byte)',', 0xfe, (byte)'\n', (byte)'1', (byte)',', (byte)'2', (byte)'\n']);

        var error = Assert.Throws<TraceFormatException>(() => TraceImport.Run(TraceImport.MetaKv, input, directory.File("out.trace")));

        Assert.All(error.Message, c => Assert.InRange(c, ' ', '~'));
    }
}
