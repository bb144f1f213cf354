// SPDX-License-Identifier: Apache-2.0

using System.Buffers.Binary;
using System.IO.Compression;
using System.Text;

namespace Cicero.Emulator.Reports.Imaging;

/// <summary>
/// Writes an <see cref="RgbImage"/> as a PNG file: the signature, IHDR (8-bit truecolour, no interlace), one IDAT with
/// the filtered rows compressed by the in-box <see cref="ZLibStream"/>, and IEND; each chunk closed by its
/// <see cref="Crc32"/>. No imaging library is available here (docs/dependencies.md).
/// </summary>
/// <remarks>
/// Each row gets the filter (None, Sub or Up) whose output has the smallest sum of absolute values, the usual
/// heuristic from the PNG specification; charts are mostly flat colour, which Sub and Up turn into runs of zeros.
/// The output depends only on the pixels (no timestamps or text chunks), so the same image gives the same bytes.
/// </remarks>
internal static class PngEncoder
{
    /// <summary>The eight bytes every PNG file starts with.</summary>
    public static ReadOnlySpan<byte> Signature => [0x89, (byte)'P', (byte)'N', (byte)'G', 0x0D, 0x0A, 0x1A, 0x0A];

    /// <summary>Encodes <paramref name="image"/>.</summary>
    public static byte[] Encode(RgbImage image)
    {
        ArgumentNullException.ThrowIfNull(image);
        using var output = new MemoryStream();
        output.Write(Signature);

        Span<byte> header = stackalloc byte[13];
        BinaryPrimitives.WriteInt32BigEndian(header, image.Width);
        BinaryPrimitives.WriteInt32BigEndian(header[4..], image.Height);
        header[8] = 8;  // bits per channel
        header[9] = 2;  // colour type: truecolour (RGB)
        header[10] = 0; // compression: deflate
        header[11] = 0; // filter method: adaptive, five filter types
        header[12] = 0; // no interlace
        WriteChunk(output, "IHDR", header);
        WriteChunk(output, "IDAT", Compress(Filter(image)));
        WriteChunk(output, "IEND", []);
        return output.ToArray();
    }

    /// <summary>Prefixes every row with a filter-type byte and filters it.</summary>
    private static byte[] Filter(RgbImage image)
    {
        var stride = image.Width * 3;
        var filtered = new byte[(stride + 1) * image.Height];
        var candidate = new byte[stride];
        var pixels = image.Pixels;
        for (var y = 0; y < image.Height; y++)
        {
            var row = pixels.AsSpan(y * stride, stride);
            var above = y == 0 ? default : pixels.AsSpan((y - 1) * stride, stride);
            var target = filtered.AsSpan((y * (stride + 1)) + 1, stride);
            row.CopyTo(target);
            var bestType = (byte)0;
            var bestCost = Cost(target);
            for (byte type = 1; type <= 2; type++)
            {
                for (var i = 0; i < stride; i++)
                {
                    // Sub subtracts the same channel of the pixel to the left, Up the byte above (0 off the image).
                    var predictor = type == 1 ? (i >= 3 ? row[i - 3] : 0) : (above.IsEmpty ? 0 : above[i]);
                    candidate[i] = (byte)(row[i] - predictor);
                }

                var cost = Cost(candidate);
                if (cost < bestCost)
                {
                    bestCost = cost;
                    bestType = type;
                    candidate.CopyTo(target);
                }
            }

            filtered[y * (stride + 1)] = bestType;
        }

        return filtered;
    }

    /// <summary>The sum of the bytes read as signed values: small when the filter predicted well.</summary>
    private static long Cost(ReadOnlySpan<byte> bytes)
    {
        var sum = 0L;
        foreach (var value in bytes)
        {
            sum += Math.Abs((int)(sbyte)value);
        }

        return sum;
    }

    private static byte[] Compress(byte[] data)
    {
        using var compressed = new MemoryStream();
        using (var zlib = new ZLibStream(compressed, CompressionLevel.SmallestSize, leaveOpen: true))
        {
            zlib.Write(data);
        }

        return compressed.ToArray();
    }

    private static void WriteChunk(Stream output, string type, ReadOnlySpan<byte> data)
    {
        Span<byte> word = stackalloc byte[4];
        BinaryPrimitives.WriteInt32BigEndian(word, data.Length);
        output.Write(word);

        // The CRC covers the type and the data, not the length.
        Span<byte> typeBytes = stackalloc byte[4];
        Encoding.ASCII.GetBytes(type, typeBytes);
        output.Write(typeBytes);
        output.Write(data);
        var crc = ~Crc32.Update(Crc32.Update(0xFFFFFFFFu, typeBytes), data);
        BinaryPrimitives.WriteUInt32BigEndian(word, crc);
        output.Write(word);
    }
}
