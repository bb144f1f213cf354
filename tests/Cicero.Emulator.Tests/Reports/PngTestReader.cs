// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.IO.Compression;
using System.Text;

namespace Cicero.Emulator.Tests.Reports;

/// <summary>
/// An independent, minimal PNG reader for the tests: checks the signature and every chunk's CRC (computed bit by bit
/// here, so it shares nothing with the encoder's table) and decodes 8-bit RGB images with any of the five filters.
/// </summary>
internal static class PngTestReader
{
    private static readonly byte[] Signature = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A];

    public static (int Width, int Height) ReadSize(byte[] png)
    {
        Assert.Equal(Signature, png.AsSpan(0, 8).ToArray());
        Assert.Equal("IHDR", Encoding.ASCII.GetString(png, 12, 4));
        return (BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(16)), BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(20)));
    }

    public static List<string> ChunkTypes(byte[] png)
    {
        var types = new List<string>();
        foreach (var (type, _) in Chunks(png))
        {
            types.Add(type);
        }

        return types;
    }

    /// <summary>Decodes to RGB bytes, row-major.</summary>
    public static (int Width, int Height, byte[] Rgb) Decode(byte[] png)
    {
        var (width, height) = ReadSize(png);
        using var idat = new MemoryStream();
        foreach (var (type, data) in Chunks(png))
        {
            if (type == "IHDR")
            {
                Assert.Equal([8, 2, 0, 0, 0], data[8..13]);
            }
            else if (type == "IDAT")
            {
                idat.Write(data);
            }
        }

        idat.Position = 0;
        using var zlib = new ZLibStream(idat, CompressionMode.Decompress);
        using var raw = new MemoryStream();
        zlib.CopyTo(raw);
        var bytes = raw.ToArray();
        var stride = width * 3;
        Assert.Equal((stride + 1) * height, bytes.Length);
        var rgb = new byte[stride * height];
        for (var y = 0; y < height; y++)
        {
            var filter = bytes[y * (stride + 1)];
            for (var i = 0; i < stride; i++)
            {
                var x = bytes[(y * (stride + 1)) + 1 + i];
                int a = i >= 3 ? rgb[(y * stride) + i - 3] : 0;
                int b = y > 0 ? rgb[((y - 1) * stride) + i] : 0;
                int c = i >= 3 && y > 0 ? rgb[((y - 1) * stride) + i - 3] : 0;
                var predictor = filter switch
                {
                    0 => 0,
                    1 => a,
                    2 => b,
                    3 => (a + b) / 2,
                    4 => Paeth(a, b, c),
                    _ => throw new InvalidDataException($"filter {filter}"),
                };
                rgb[(y * stride) + i] = (byte)(x + predictor);
            }
        }

        return (width, height, rgb);
    }

    /// <summary>The CRC-32 of PNG, bit by bit: slow, obviously right, and independent of the encoder's table.</summary>
    public static uint BitwiseCrc(ReadOnlySpan<byte> data)
    {
        var crc = 0xFFFFFFFFu;
        foreach (var value in data)
        {
            crc ^= value;
            for (var k = 0; k < 8; k++)
            {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
            }
        }

        return ~crc;
    }

    private static IEnumerable<(string Type, byte[] Data)> Chunks(byte[] png)
    {
        var offset = 8;
        while (offset < png.Length)
        {
            var length = BinaryPrimitives.ReadInt32BigEndian(png.AsSpan(offset));
            var type = Encoding.ASCII.GetString(png, offset + 4, 4);
            var data = png.AsSpan(offset + 8, length).ToArray();
            var crc = BinaryPrimitives.ReadUInt32BigEndian(png.AsSpan(offset + 8 + length));
            Assert.Equal(BitwiseCrc(png.AsSpan(offset + 4, 4 + length)), crc);
            yield return (type, data);
            offset += 12 + length;
        }
    }

    private static int Paeth(int a, int b, int c)
    {
        var p = a + b - c;
        var pa = Math.Abs(p - a);
        var pb = Math.Abs(p - b);
        var pc = Math.Abs(p - c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
}
