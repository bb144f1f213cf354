// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Traces;

namespace Cicero.Emulator.Tests.Traces;

/// <summary>Generates large traces for memory tests, deterministically from a seed.</summary>
internal static class SyntheticTraces
{
    private static readonly string[] Tenants = [.. Enumerable.Range(0, 16).Select(i => $"tenant-{i:D2}")];
    private static readonly string[] Operations = ["get", "put", "list", "delete"];

    /// <summary>Writes a Cicero trace of about <paramref name="bytes"/> bytes.</summary>
    /// <returns>The number of requests written.</returns>
    public static long WriteCicero(string path, long bytes, int seed)
    {
        var random = new Random(seed);
        using var stream = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16);
        using var writer = new TraceWriter(stream, new TraceHeader(new Dictionary<string, string> { ["source"] = "synthetic" }), leaveOpen: true);
        double arrival = 0;
        while (stream.Length < bytes)
        {
            for (var i = 0; i < 1000; i++)
            {
                arrival += Math.Round(-Math.Log(1 - random.NextDouble()), 3);
                var op = Operations[random.Next(Operations.Length)];
                var size = random.NextInt64(1, 8 << 20);
                var hinted = random.Next(10) == 0;
                writer.Write(new TraceRequest(
                    arrival,
                    Tenants[random.Next(Tenants.Length)],
                    op,
                    op == "put" ? size : 64,
                    op == "put" ? 0 : size,
                    random.Next(10) == 0 ? null : random.Next(9),
                    hinted ? 1 : null,
                    hinted ? Math.Round(random.NextDouble() * 5, 2) : null,
                    hinted ? Math.Round(random.NextDouble() * 50, 2) : null));
            }
        }

        writer.Flush();
        return writer.RequestsWritten;
    }

    /// <summary>Writes a Meta block trace (the <c>block_traces_*.csv</c> columns) of about <paramref name="bytes"/> bytes, 30 rows a second.</summary>
    /// <returns>The number of rows written.</returns>
    public static long WriteMetaBlock(string path, long bytes, int seed)
    {
        var random = new Random(seed);
        using var writer = new StreamWriter(path, append: false, new UTF8Encoding(false), 1 << 16);
        writer.Write("op_time,block_id,block_id_size,io_size,io_offset,user_name,user_namespace,op_name,op_count,host_name,rs_shard_id\n");
        long rows = 0;
        while (writer.BaseStream.Length < bytes)
        {
            var second = 1_702_511_878 + (rows / 30);
            var get = random.Next(3) != 0;
            writer.Write(string.Create(CultureInfo.InvariantCulture,
                $"{second},{random.Next(40):x8}-{random.NextInt64():x16},40,{random.Next(1, 8 << 20)},0,{random.Next(8)},1,{(get ? "getChunkData.Permanent" : "putChunk.Permanent")},{random.Next(1, 3)},{random.Next(1000)},{random.Next(16)}\n"));
            rows++;
        }

        return rows;
    }
}
