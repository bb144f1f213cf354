// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;
using Cicero.Emulator.Reproduction;

namespace Cicero.Emulator.Tests.Reproduction;

/// <summary>
/// The trace-driven claims (Table 5.4 and its sweep) on a block trace made up here, not one the studies were written
/// against: every claim the shared sample gets is judged, each with a verdict, and one that does not hold says why.
/// </summary>
[Collection(ReducedReproductionRun.Name)]
public sealed class ReproductionPageTestsOnAGeneratedTrace(ReproductionClaimsFixture fixture)
{
    [Fact]
    public void TheTraceClaims_AreJudgedOnATraceNotInTheRepository()
    {
        var directory = Directory.CreateTempSubdirectory().FullName;
        try
        {
            var path = Path.Combine(directory, "generated_block.csv");
            File.WriteAllText(path, BlockTrace(new Random(20261129), rows: 400));
            var settings = new ReproductionSettings
            {
                Reduced = true,
                BlockTracePath = path,
                SweepTraces = [new SweepTrace("generated_block", "meta-block", path, 4)],
                Parallelism = 1,
            };

            var sections = (IReadOnlyList<ReproductionSection>)[.. DeadlineStudy.Run(settings), .. DeadlineSweep.Run(settings)];

            var onShared = fixture.Sections.Where(s => s.Id.StartsWith("deadline", StringComparison.Ordinal)).ToList();
            Assert.Equal(onShared.Select(s => s.Id).Order(), sections.Select(s => s.Id).Order());
            Assert.Equal(onShared.SelectMany(s => s.Claims).Select(c => c.Id).Order(), sections.SelectMany(s => s.Claims).Select(c => c.Id).Order());
            Assert.All(sections.SelectMany(s => s.Claims), c =>
            {
                Assert.True(Enum.IsDefined(c.Verdict), c.Id);
                Assert.False(string.IsNullOrWhiteSpace(c.Ours), c.Id + " has no figure");
                Assert.True(c.Holds || !string.IsNullOrWhiteSpace(c.Reason), c.Id + " does not hold and says no reason");
            });
            Assert.Contains("generated_block", sections.Single(s => s.Id == "deadline-sweep").Markdown, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>Meta's block-trace format: four tenants, bursty seconds, gets of one to four chunks of a block, and puts.</summary>
    private static string BlockTrace(Random random, int rows)
    {
        var text = new StringBuilder("op_time,block_id,block_id_size,io_size,io_offset,user_name,user_namespace,op_name,op_count,host_name,rs_shard_id\n");
        long[] users = [.. Enumerable.Range(0, 4).Select(_ => random.NextInt64(1_000_000_000, 4_000_000_000))];
        long[] sizes = [65_536, 1_048_576, 4_194_304, 8_388_608];
        var time = 1_800_000_000L;
        for (var written = 0; written < rows;)
        {
            time += random.Next(4);
            for (var burst = 1 << random.Next(4); burst > 0 && written < rows; burst--)
            {
                var user = users[random.Next(users.Length)];
                var block = string.Create(CultureInfo.InvariantCulture, $"{random.NextInt64():x16}-{random.NextInt64():x16}");
                var put = random.NextDouble() < 0.3;
                for (var chunk = 0; chunk < (put ? 1 : 1 << random.Next(3)) && written < rows; chunk++, written++)
                {
                    text.Append(CultureInfo.InvariantCulture, $"{time},{block},40,{sizes[random.Next(sizes.Length)]},{chunk * 8_388_608},{user},123,{(put ? "putChunk.Permitted" : "getChunkData.Permitted")},{1 + random.Next(2)},{random.Next()},{random.Next(8)}\n");
                }
            }
        }

        return text.ToString();
    }
}
