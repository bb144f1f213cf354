// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Cicero.Emulator.Traces;

namespace Cicero.Emulator.Tests.Traces;

public sealed class TraceReaderTests
{
    private const string Columns = "arrival_ms,tenant,op,request_bytes,response_bytes,fanout,auth_ms,ps_ms,bs_ms";

    [Fact]
    public void WriteThenRead_EveryField_RoundTrips()
    {
        TraceRequest[] requests =
        [
            new(0, "t1", "get", 0, 8_388_608, 3),
            new(0.1, "t1", "put", 1_012_394, 0, 1, AuthMs: 0.5, PsMs: 1.25, BsMs: 12.5),
            new(1e-7, "tenant-2.a+b", "scan_all", 17, 0),
            new(123_456_789.0001, "t1", "get", long.MaxValue, 0, 0, 0, 0, 0),
        ];
        Array.Sort(requests, (a, b) => a.ArrivalMs.CompareTo(b.ArrivalMs));
        using var stream = new MemoryStream();
        using (var writer = new TraceWriter(stream, new TraceHeader(new Dictionary<string, string> { ["source"] = "test" }), leaveOpen: true))
        {
            foreach (var request in requests)
            {
                writer.Write(request);
            }
        }

        stream.Position = 0;
        using var reader = TraceReader.Create(stream, "memory.csv");
        var read = reader.ReadAll().ToList();

        Assert.Equal(requests, read);
        Assert.Equal("test", reader.Header.Source);
        Assert.Equal(TraceColumns.All, reader.Header.Columns);
        Assert.Equal(1, reader.Header.Version);
    }

    [Fact]
    public async Task ReadAllAsync_SameFile_SameRequestsAsSync()
    {
        using var dir = new TempDirectory();
        var path = dir.Write("trace.csv", $"#cicero-trace v1\n{Columns}\n1,a,get,1,2,3,,,\n2,b,put,4,5,,1,,\n");

        var sync = TraceReader.ReadFile(path).ToList();
        var async = new List<TraceRequest>();
        await foreach (var request in TraceReader.ReadFileAsync(path))
        {
            async.Add(request);
        }

        Assert.Equal(2, sync.Count);
        Assert.Equal(sync, async);
        Assert.Equal(new TraceRequest(2, "b", "put", 4, 5, null, 1), sync[1]);
    }

    [Fact]
    public void Read_SubsetOfColumnsInAnyOrder_MissingOnesAreEmpty()
    {
        var read = Read("#cicero-trace v1 source=hand\nop , tenant,arrival_ms\nget,a,1.5\n");

        Assert.Equal([new TraceRequest(1.5, "a", "get", 0, 0)], read);
    }

    [Fact]
    public void Read_CrLfBomCommentsBlankLinesAndNoFinalNewline_Accepted()
    {
        var text = "\uFEFF#cicero-trace v1\r\n# a comment before the columns\r\n" + Columns + "\r\n\r\n# comment\r\n0,a,get,1,2,,,,\r\n  \r\n3,a,get,1,2,,,,";

        var read = Read(text);

        Assert.Equal([0.0, 3.0], read.Select(r => r.ArrivalMs));
    }

    [Fact]
    public void Read_NamesRepeat_SameStringInstances()
    {
        var read = Read($"#cicero-trace v1\n{Columns}\n0,tenant,get,,,,,,\n1,tenant,get,,,,,,\n");

        Assert.Same(read[0].Tenant, read[1].Tenant);
        Assert.Same(read[0].Operation, read[1].Operation);
    }

    [Fact]
    public void Read_LinesLongerThanTheBuffer_AreReassembled()
    {
        // Comment lines of 100 KB push data lines across the 64 KiB buffer's boundary.
        var text = new StringBuilder($"#cicero-trace v1\n{Columns}\n");
        for (var i = 0; i < 20; i++)
        {
            text.Append('#').Append('x', 100_000).Append('\n').Append(i).Append(",a,get,1,2,,,,\n");
        }

        var read = Read(text.ToString());

        Assert.Equal(Enumerable.Range(0, 20).Select(i => (double)i), read.Select(r => r.ArrivalMs));
    }

    [Fact]
    public void Read_BadArrival_NamesFileLineAndField()
    {
        using var dir = new TempDirectory();
        var path = dir.Write("trace.csv", $"#cicero-trace v1\n{Columns}\n0,a,get,,,,,,\nx,a,get,,,,,,\n");

        var error = Assert.Throws<TraceFormatException>(() => TraceReader.ReadFile(path).ToList());

        Assert.Equal($"{path}:4: field 'arrival_ms': expected a non-negative number, was \"x\"", error.Message);
        Assert.Equal(path, error.File);
        Assert.Equal(4, error.Line);
        Assert.Equal("arrival_ms", error.Field);
    }

    [Theory]
    [InlineData("-1,a,get,,,,,,", "arrival_ms", "expected a non-negative number, was \"-1\"")]
    [InlineData("NaN,a,get,,,,,,", "arrival_ms", "expected a non-negative number, was \"NaN\"")]
    [InlineData("0.5,a,get,,,,,,", "arrival_ms", "arrivals must not go back in time; the previous request arrived at 1, was \"0.5\"")]
    [InlineData("2,a b,get,,,,,,", "tenant", "expected 1-128 letters, digits, '-', '_', '.' or '+', was \"a b\"")]
    [InlineData("2,a,,,,,,,", "op", "expected 1-128 letters, digits, '-', '_', '.' or '+', was \"\"")]
    [InlineData("2,a,get,-5,,,,,", "request_bytes", "expected a non-negative integer, was \"-5\"")]
    [InlineData("2,a,get,,1.5,,,,", "response_bytes", "expected a non-negative integer, was \"1.5\"")]
    [InlineData("2,a,get,,,2000000,,,", "fanout", "expected an integer from 0 to 1000000 or nothing, was \"2000000\"")]
    [InlineData("2,a,get,,,,x,,", "auth_ms", "expected a non-negative number or nothing, was \"x\"")]
    [InlineData("2,a,get,,,,,-1,", "ps_ms", "expected a non-negative number or nothing, was \"-1\"")]
    [InlineData("2,a,get,,,,,,Infinity", "bs_ms", "expected a non-negative number or nothing, was \"Infinity\"")]
    public void Read_MalformedField_ThrowsWithLineAndField(string line, string field, string problem)
    {
        var error = Assert.Throws<TraceFormatException>(() => Read($"#cicero-trace v1\n{Columns}\n1,a,get,,,,,,\n{line}\n", "t.csv"));

        Assert.Equal($"t.csv:4: field '{field}': {problem}", error.Message);
        Assert.Equal(4, error.Line);
        Assert.Equal(field, error.Field);
    }

    [Theory]
    [InlineData("", 1, null, "the file is empty; a Cicero trace starts with '#cicero-trace v1'")]
    [InlineData("arrival_ms,tenant,op\n", 1, null, "expected the version line '#cicero-trace v1', was \"arrival_ms,tenant,op\"")]
    [InlineData("#cicero-trace v2\n", 1, null, "unsupported trace version 2; this library reads version 1")]
    [InlineData("#cicero-trace v1 Source=x\n", 1, null, "expected properties as key=value (key: lower-case letters, digits, '_', '-', '.'), was \"Source=x\"")]
    [InlineData("#cicero-trace v1\n", 2, null, "the file ends before the column line (for example 'arrival_ms,tenant,op,request_bytes,response_bytes,fanout,auth_ms,ps_ms,bs_ms')")]
    [InlineData("#cicero-trace v1\narrival_ms,tenant,op,size\n", 2, "size", "unknown column; known: arrival_ms, tenant, op, request_bytes, response_bytes, fanout, auth_ms, ps_ms, bs_ms")]
    [InlineData("#cicero-trace v1\narrival_ms,tenant,op,op\n", 2, "op", "the column appears twice")]
    [InlineData("#cicero-trace v1\narrival_ms,op\n", 2, "tenant", "required column is missing; the column line has: arrival_ms, op")]
    [InlineData("#cicero-trace v1\narrival_ms,tenant,op\n1,a\n", 3, null, "expected 3 fields as in the column line, found 2")]
    [InlineData("#cicero-trace v1\narrival_ms,tenant,op\n1,a,get,\n", 3, null, "expected 3 fields as in the column line, found 4")]
    public void Read_MalformedStructure_ThrowsWithLine(string text, long line, string? field, string problem)
    {
        var error = Assert.Throws<TraceFormatException>(() => Read(text, "t.csv"));

        Assert.Equal(field is null ? $"t.csv:{line}: {problem}" : $"t.csv:{line}: field '{field}': {problem}", error.Message);
        Assert.Equal(line, error.Line);
        Assert.Equal(field, error.Field);
    }

    [Fact]
    public void Read_LineOverOneMebibyte_Throws()
    {
        var text = $"#cicero-trace v1\n{Columns}\n#{new string('x', 1_100_000)}\n";

        var error = Assert.Throws<TraceFormatException>(() => Read(text, "t.csv"));

        Assert.Equal("t.csv:3: line is longer than 1024 KiB; is this a text trace?", error.Message);
    }

    [Fact]
    public void Write_ArrivalGoesBack_Throws()
    {
        using var writer = new TraceWriter(new MemoryStream());
        writer.Write(new TraceRequest(5, "a", "get", 0, 0));

        Assert.Throws<ArgumentException>(() => writer.Write(new TraceRequest(4, "a", "get", 0, 0)));
        Assert.Throws<ArgumentException>(() => writer.Write(new TraceRequest(6, "a,b", "get", 0, 0)));
        Assert.Throws<ArgumentException>(() => writer.Write(new TraceRequest(6, "a", "get", -1, 0)));
        Assert.Throws<ArgumentException>(() => writer.Write(new TraceRequest(6, "a", "get", 0, 0, BsMs: double.NaN)));
        Assert.Equal(1, writer.RequestsWritten);
    }

    [Fact]
    public void Header_BadProperty_Throws()
    {
        Assert.Throws<ArgumentException>(() => new TraceHeader(new Dictionary<string, string> { ["source"] = "two words" }));
        Assert.Throws<ArgumentException>(() => new TraceHeader(new Dictionary<string, string> { ["Source"] = "x" }));
    }

    [Fact]
    public void ReadFile_RepositoryExample_ReadsEveryLine()
    {
        var path = Path.Combine(TraceTestFiles.RepositoryTraces, "example.csv");
        var lines = File.ReadAllLines(path).Count(l => l.Length > 0 && !l.StartsWith('#'));

        var read = TraceReader.ReadFile(path).ToList();

        Assert.Equal(lines - 1, read.Count);
        Assert.Contains(read, r => r.FanOut is null);
        Assert.Contains(read, r => r.BsMs is not null);
    }

    private static List<TraceRequest> Read(string text, string name = "memory.csv")
    {
        using var reader = TraceReader.Create(new MemoryStream(Encoding.UTF8.GetBytes(text)), name);
        return reader.ReadAll().ToList();
    }
}
