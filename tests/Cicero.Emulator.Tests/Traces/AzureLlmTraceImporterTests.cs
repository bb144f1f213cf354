// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Traces;
using Cicero.Emulator.Traces.Importers;

namespace Cicero.Emulator.Tests.Traces;

public sealed class AzureLlmTraceImporterTests
{
    [Fact]
    public void Import_SharedSample_MatchesAnIndependentParse()
    {
        var path = TraceTestFiles.AzureLlm;
        var (header, rows) = TraceTestFiles.ReadCsv(path);
        int time = Array.IndexOf(header, "TIMESTAMP"), context = Array.IndexOf(header, "ContextTokens"), generated = Array.IndexOf(header, "GeneratedTokens");
        var times = rows.Select(r => DateTime.ParseExact(r[time], "yyyy-MM-dd HH:mm:ss.fffffff", CultureInfo.InvariantCulture)).ToList();

        using var stream = File.OpenRead(path);
        var imported = new AzureLlmTraceImporter().Import(stream, path).ToList();

        Assert.Equal(8819, rows.Count);
        Assert.Equal(rows.Count, imported.Count);
        Assert.All(imported, r => Assert.Equal(("AzureLLMInferenceTrace_code", "infer"), (r.Tenant, r.Operation)));
        Assert.Equal(rows.Sum(r => 4L * long.Parse(r[context], CultureInfo.InvariantCulture)), imported.Sum(r => r.RequestBytes));
        Assert.Equal(rows.Sum(r => 4L * long.Parse(r[generated], CultureInfo.InvariantCulture)), imported.Sum(r => r.ResponseBytes));
        for (var i = 0; i < rows.Count; i++)
        {
            Assert.Equal((times[i] - times[0]).TotalMilliseconds, imported[i].ArrivalMs, 1e-6);
        }

        Assert.InRange(imported[^1].ArrivalMs / 1000, 3435, 3437); // "8819 requests in 3436 s"
        Assert.All(imported, r => Assert.Null(r.FanOut));
    }

    [Fact]
    public void Import_Options_SetTenantOperationAndTokenSize()
    {
        var text = "TIMESTAMP,ContextTokens,GeneratedTokens\r\n2023-11-16 18:17:03.5,10,2\r\n2023-11-16T18:17:04,1,1";
        var importer = new AzureLlmTraceImporter(new AzureLlmImportOptions { Tenant = "chat", Operation = "complete", BytesPerToken = 3 });

        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(text));
        var imported = importer.Import(stream, "x.csv").ToList();

        Assert.Equal([new TraceRequest(0, "chat", "complete", 30, 6), new TraceRequest(500, "chat", "complete", 3, 3)], imported);
    }

    [Theory]
    [InlineData("2023-13-16 18:17:03.9799600", "expected a time like 2023-11-16 18:17:03.9799600, was \"2023-13-16 18:17:03.9799600\"")]
    [InlineData("2023-11-16 18:17:03.", "expected a time like 2023-11-16 18:17:03.9799600, was \"2023-11-16 18:17:03.\"")]
    [InlineData("2023-11-16 18:17:02", "rows must be in time order; this one is earlier than the previous row, was \"2023-11-16 18:17:02\"")]
    public void Import_BadTimestamp_NamesLineAndColumn(string timestamp, string problem)
    {
        var text = $"TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03,1,1\n{timestamp},1,1\n";

        using var stream = new MemoryStream(Encoding.UTF8.GetBytes(text));
        var error = Assert.Throws<TraceFormatException>(() => new AzureLlmTraceImporter().Import(stream, "llm.csv").ToList());

        Assert.Equal($"llm.csv:3: field 'TIMESTAMP': {problem}", error.Message);
    }
}
