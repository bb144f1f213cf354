// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;

namespace Cicero.Emulator.Tests.Traces;

public sealed class MetaBlockTraceImporterTests
{
    private const string Header = "op_time,block_id,block_id_size,io_size,io_offset,user_name,user_namespace,op_name,op_count,host_name,rs_shard_id";

    [Fact]
    public void Import_SharedSample_MatchesAnIndependentGrouping()
    {
        var (header, rows) = TraceTestFiles.ReadCsv(TraceTestFiles.MetaBlock);
        int time = Array.IndexOf(header, "op_time"), block = Array.IndexOf(header, "block_id"), size = Array.IndexOf(header, "io_size"),
            user = Array.IndexOf(header, "user_name"), op = Array.IndexOf(header, "op_name"), count = Array.IndexOf(header, "op_count");
        long Long(string[] row, int column) => long.Parse(row[column], CultureInfo.InvariantCulture);

        // The oracle: GET rows grouped by second, user and block (copy k of each row in the group's k-th request);
        // each PUT row repeated op_count times.
        var gets = rows.Where(r => r[op].StartsWith("getChunkData", StringComparison.Ordinal)).ToList();
        var puts = rows.Where(r => r[op].StartsWith("putChunk", StringComparison.Ordinal)).ToList();
        var groups = gets.GroupBy(r => (r[time], r[user], r[block])).ToList();
        var expected = new List<(long Second, string Tenant, string Op, long FanOut, long RequestBytes, long ResponseBytes)>();
        foreach (var group in groups)
        {
            for (var k = 0; k < group.Max(r => Long(r, count)); k++)
            {
                var members = group.Where(r => Long(r, count) > k).ToList();
                expected.Add((Long(group.First(), time), group.Key.Item2, "get", members.Count, 0, members.Sum(r => Long(r, size))));
            }
        }

        foreach (var row in puts)
        {
            for (var k = 0; k < Long(row, count); k++)
            {
                expected.Add((Long(row, time), row[user], "put", 1, Long(row, size), 0));
            }
        }

        var origin = rows.Min(r => Long(r, time));
        var imported = Import(TraceTestFiles.MetaBlock);

        Assert.Equal(999, rows.Count);
        Assert.Equal(999, gets.Count + puts.Count);
        Assert.Equal(363, groups.Count); // the shared README's count of (block, second) groups
        Assert.Equal(expected.Count, imported.Count);
        Assert.Equal(779, imported.Count); // as traces/README.md states
        Assert.Equal(
            expected.Select(e => e.Tenant).Distinct().Order(StringComparer.Ordinal),
            imported.Select(r => r.Tenant).Distinct().Order(StringComparer.Ordinal));
        Assert.Equal(gets.Sum(r => Long(r, count)), imported.Where(r => r.Operation == "get").Sum(r => r.FanOut!.Value));
        Assert.Equal(gets.Sum(r => Long(r, size) * Long(r, count)), imported.Where(r => r.Operation == "get").Sum(r => r.ResponseBytes));
        Assert.Equal(puts.Sum(r => Long(r, size) * Long(r, count)), imported.Where(r => r.Operation == "put").Sum(r => r.RequestBytes));
        Assert.Equal(
            expected.OrderBy(e => e.ToString(), StringComparer.Ordinal),
            imported.Select(r => ((long)Math.Floor(r.ArrivalMs / 1000) + origin, r.Tenant, r.Operation, (long)r.FanOut!.Value, r.RequestBytes, r.ResponseBytes))
                .OrderBy(e => e.ToString(), StringComparer.Ordinal));
        Assert.Equal(0, imported[0].ArrivalMs);
        Assert.True(imported.Zip(imported.Skip(1)).All(p => p.First.ArrivalMs < p.Second.ArrivalMs), "arrivals strictly increase");
    }

    [Fact]
    public void Import_OneSecond_GroupsReadsAndSpreadsEvenly()
    {
        var text = $"""
            {Header}
            10,b1,40,100,0,7,1,getChunkData.Permanent,1,1,0
            10,b2,40,500,0,7,1,putChunk.Permanent,2,1,0
            10,b1,40,200,0,7,1,getChunkData.NotInitialized,2,2,1
            11,b1,40,300,0,8,1,getChunkData.Permanent,1,3,2
            """;

        var imported = Import(text, "block.csv");

        Assert.Equal(
            [
                new TraceRequest(0, "7", "get", 0, 300, 2),
                new TraceRequest(250, "7", "get", 0, 200, 1),
                new TraceRequest(500, "7", "put", 500, 0, 1),
                new TraceRequest(750, "7", "put", 500, 0, 1),
                new TraceRequest(1000, "8", "get", 0, 300, 1),
            ],
            imported);
    }

    [Theory]
    [InlineData("1,b,40,abc,0,7,1,getChunkData.Permanent,1,1,0", 3, "io_size", "expected a non-negative integer, was \"abc\"")]
    [InlineData("0,b,40,1,0,7,1,getChunkData.Permanent,1,1,0", 3, "op_time", "rows must be in time order; the previous row's second was 1, was \"0\"")]
    [InlineData("1,b,40,1,0,7,1,deleteChunk,1,1,0", 3, "op_name", "expected getChunkData.* or putChunk.*, was \"deleteChunk\"")]
    [InlineData("1,b,40,1,0,7,1,getChunkData.Permanent,0,1,0", 3, "op_count", "expected an integer from 1 to 1,000,000, was \"0\"")]
    [InlineData("1,b,40,1,0,7,1,getChunkData.Permanent,1,1", 3, null, "expected 11 fields as in the header, found 10")]
    public void Import_MalformedRow_ThrowsWithLineAndColumn(string row, long line, string? field, string problem)
    {
        var text = $"{Header}\n1,a,40,1,0,7,1,getChunkData.Permanent,1,1,0\n{row}\n";

        var error = Assert.Throws<TraceFormatException>(() => Import(text, "block.csv"));

        Assert.Equal(field is null ? $"block.csv:{line}: {problem}" : $"block.csv:{line}: field '{field}': {problem}", error.Message);
        Assert.Equal(line, error.Line);
    }

    [Fact]
    public void Import_MissingColumn_NamesIt()
    {
        var error = Assert.Throws<TraceFormatException>(() => Import("op_time,block_id,io_size,op_name,op_count\n1,b,1,getChunkData,1\n", "block.csv"));

        Assert.Equal("block.csv:1: field 'user_name': required column is missing; the header has: op_time, block_id, io_size, op_name, op_count", error.Message);
    }

    [Fact]
    public void Import_EmptyFile_Throws()
    {
        var error = Assert.Throws<TraceFormatException>(() => Import(string.Empty, "block.csv"));

        Assert.Equal("block.csv:1: the file is empty; expected a header line with column names", error.Message);
    }

    [Fact]
    public void Run_SharedSample_WritesWhatTheImporterYields()
    {
        using var dir = new TempDirectory();
        var output = dir.File("block.csv");

        var summary = TraceImport.Run(TraceImport.MetaBlock, TraceTestFiles.MetaBlock, output);

        var direct = Import(TraceTestFiles.MetaBlock);
        using var reader = TraceReader.Open(output);
        Assert.Equal(direct, reader.ReadAll().ToList());
        Assert.Equal(TraceImport.MetaBlock, reader.Header.Source);
        Assert.Equal("block_traces_1.csv", reader.Header.Properties[TraceHeader.InputProperty]);
        Assert.Equal(direct.Count, summary.Requests);
        Assert.Equal(direct.Select(r => r.Tenant).Distinct().Count(), summary.Tenants);
        Assert.Equal(2, summary.Operations);
        Assert.Equal(direct[^1].ArrivalMs, summary.LastArrivalMs);
    }

    [Fact]
    public void Run_WithProgress_ReportsBytesReadRisingToTheInputsLength()
    {
        using var dir = new TempDirectory();
        var input = dir.File("azure.csv");
        File.WriteAllLines(input, ["TIMESTAMP,ContextTokens,GeneratedTokens", .. Enumerable.Range(0, 10_000).Select(i => $"2023-11-16 18:{i / 6000:00}:{i / 100 % 60:00}.{i % 100:00}00000,{100 + i},{1 + (i % 7)}")]);
        var reports = new Recorded();

        var summary = TraceImport.Run(TraceImport.AzureLlm, input, dir.File("trace.csv"), reports);

        Assert.Equal(10_000, summary.Requests);
        Assert.True(reports.Values.Count >= 3, $"{reports.Values.Count} reports");
        Assert.Equal(reports.Values.Order(), reports.Values);
        Assert.InRange(reports.Values[0], 1, new FileInfo(input).Length - 1);
        Assert.Equal(new FileInfo(input).Length, reports.Values[^1]);
    }

    [Fact]
    public void GetImporter_UnknownFormat_ListsKnownOnes()
    {
        var error = Assert.Throws<ArgumentException>(() => TraceImport.GetImporter("tectonic"));

        Assert.StartsWith("Unknown trace format 'tectonic'; known: azure-llm, meta-block, meta-kv.", error.Message, StringComparison.Ordinal);
    }

    private static List<TraceRequest> Import(string path)
    {
        using var stream = File.OpenRead(path);
        return new MetaBlockTraceImporter().Import(stream, path).ToList();
    }

    private static List<TraceRequest> Import(string text, string name)
    {
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(text));
        return new MetaBlockTraceImporter().Import(stream, name).ToList();
    }

    private sealed class Recorded : IProgress<long>
    {
        public List<long> Values { get; } = [];

        public void Report(long value) => Values.Add(value);
    }
}
