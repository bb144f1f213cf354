// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Imaging;

/// <summary>
/// CRC-32 as PNG (and zlib's <c>crc32</c>, Ethernet, gzip) defines it: reflected polynomial 0xEDB88320, initial value
/// and final XOR 0xFFFFFFFF. System.IO.Hashing is not available here (docs/dependencies.md), so it is written out;
/// one byte per step with a 256-entry table is plenty for a few PNG chunks.
/// </summary>
internal static class Crc32
{
    private static readonly uint[] Table = CreateTable();

    /// <summary>Gets the CRC of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => ~Update(0xFFFFFFFFu, data);

    /// <summary>Continues a running CRC register (start with 0xFFFFFFFF, finish with a bitwise NOT).</summary>
    public static uint Update(uint register, ReadOnlySpan<byte> data)
    {
        foreach (var value in data)
        {
            register = Table[(register ^ value) & 0xFF] ^ (register >> 8);
        }

        return register;
    }

    private static uint[] CreateTable()
    {
        var table = new uint[256];
        for (var n = 0u; n < 256; n++)
        {
            var c = n;
            for (var k = 0; k < 8; k++)
            {
                c = (c & 1) != 0 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }

            table[n] = c;
        }

        return table;
    }
}
