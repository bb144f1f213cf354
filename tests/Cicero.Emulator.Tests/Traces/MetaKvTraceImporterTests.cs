// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;

namespace Cicero.Emulator.Tests.Traces;

public sealed class MetaKvTraceImporterTests
{
    [Theory]
    [InlineData(1, 11, 691)]
    [InlineData(2, 17, 433)]
    public void Import_SharedSample_MatchesAnIndependentCount(int file, int tenants, int requests)
    {
        var path = TraceTestFiles.MetaKv(file);
        var (header, rows) = TraceTestFiles.ReadCsv(path);
        int time = Array.IndexOf(header, "op_time"), keySize = Array.IndexOf(header, "key_size"), op = Array.IndexOf(header, "op"),
            count = Array.IndexOf(header, "op_count"), size = Array.IndexOf(header, "size"), usecase = Array.IndexOf(header, "usecase");
        long Long(string[] row, int column) => long.Parse(row[column], CultureInfo.InvariantCulture);
        bool IsSet(string[] row) => row[op].StartsWith("SET", StringComparison.Ordinal);
        bool IsGet(string[] row) => row[op].StartsWith("GET", StringComparison.Ordinal);

        using var stream = File.OpenRead(path);
        var imported = new MetaKvTraceImporter().Import(stream, path).ToList();

        Assert.Equal(99, rows.Count);
        Assert.Equal(rows.Sum(r => Long(r, count)), imported.Count);
        Assert.Equal(requests, imported.Count); // as traces/README.md states
        Assert.Equal(tenants, imported.Select(r => r.Tenant).Distinct().Count());
        Assert.Equal(
            rows.GroupBy(r => r[usecase]).ToDictionary(g => g.Key, g => g.Sum(r => Long(r, count))),
            imported.GroupBy(r => r.Tenant).ToDictionary(g => g.Key, g => (long)g.Count()));
        Assert.Equal(
            rows.GroupBy(r => r[op].ToLowerInvariant()).ToDictionary(g => g.Key, g => g.Sum(r => Long(r, count))),
            imported.GroupBy(r => r.Operation).ToDictionary(g => g.Key, g => (long)g.Count()));
        Assert.Equal(rows.Sum(r => Long(r, count) * (Long(r, keySize) + (IsSet(r) ? Long(r, size) : 0))), imported.Sum(r => r.RequestBytes));
        Assert.Equal(rows.Sum(r => Long(r, count) * (IsGet(r) ? Long(r, size) : 0)), imported.Sum(r => r.ResponseBytes));
        Assert.All(imported, r => Assert.Equal(0, r.FanOut));
        var origin = rows.Min(r => Long(r, time));
        Assert.Equal(
            rows.SelectMany(r => Enumerable.Repeat(Long(r, time) - origin, (int)Long(r, count))),
            imported.Select(r => (long)Math.Floor(r.ArrivalMs / 1000)));
    }

    [Fact]
    public void Import_ColumnsInAnotherOrder_ReadByName()
    {
        var text = "usecase,op,size,op_count,key_size,op_time\n5,SET_LEASE,10,1,3,100\n5,GET,7,2,3,100\n6,DELETE,0,1,4,101\n";

        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(text));
        var imported = new MetaKvTraceImporter().Import(stream, "kv.csv").ToList();

        Assert.Equal(
            [
                new TraceRequest(0, "5", "set_lease", 13, 0, 0),
                new TraceRequest(1000 / 3.0, "5", "get", 3, 7, 0),
                new TraceRequest(2000 / 3.0, "5", "get", 3, 7, 0),
                new TraceRequest(1000, "6", "delete", 4, 0, 0),
            ],
            imported);
    }

    [Fact]
    public void Import_MissingUsecase_NamesIt()
    {
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes("op_time,key,key_size,op,op_count,size\n1,k,3,GET,1,0\n"));

        var error = Assert.Throws<TraceFormatException>(() => new MetaKvTraceImporter().Import(stream, "kv.csv").ToList());

        Assert.Equal("kv.csv:1: field 'usecase': required column is missing; the header has: op_time, key, key_size, op, op_count, size", error.Message);
    }

    [Fact]
    public void Import_BadSize_NamesLineAndColumn()
    {
        using var stream = new MemoryStream(Encoding.UTF8.GetBytes("op_time,key_size,op,op_count,size,usecase\n1,3,GET,1,0,9\n1,3,GET,1,-2,9\n"));

        var error = Assert.Throws<TraceFormatException>(() => new MetaKvTraceImporter().Import(stream, "kv.csv").ToList());

        Assert.Equal("kv.csv:3: field 'size': expected a non-negative integer, was \"-2\"", error.Message);
    }
}
