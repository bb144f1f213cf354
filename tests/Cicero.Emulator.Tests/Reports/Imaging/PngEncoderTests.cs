// SPDX-License-Identifier: Apache-2.0

using System.Text;
using Cicero.Emulator.Reports.Imaging;

namespace Cicero.Emulator.Tests.Reports.Imaging;

public sealed class PngEncoderTests
{
    [Fact]
    public void Crc32_KnownVectors_MatchThePngAndZlibValues()
    {
        // The check value of CRC-32 (ISO-HDLC) and the CRC every PNG's IEND chunk carries.
        Assert.Equal(0xCBF43926u, Crc32.Compute(Encoding.ASCII.GetBytes("123456789")));
        Assert.Equal(0xAE426082u, Crc32.Compute(Encoding.ASCII.GetBytes("IEND")));
        Assert.Equal(0u, Crc32.Compute([]));
    }

    [Fact]
    public void Crc32_RandomData_MatchesABitwiseComputation()
    {
        var data = new byte[4096];
        new Random(5).NextBytes(data);

        Assert.Equal(PngTestReader.BitwiseCrc(data), Crc32.Compute(data));
    }

    [Fact]
    public void Encode_Image_HasSignatureChunksAndDimensions()
    {
        var png = PngEncoder.Encode(Pattern(37, 23));

        Assert.Equal(new byte[] { 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A }, png[..8]);
        Assert.Equal(["IHDR", "IDAT", "IEND"], PngTestReader.ChunkTypes(png));
        Assert.Equal((37, 23), PngTestReader.ReadSize(png));
        Assert.Equal(0xAE426082u, System.Buffers.Binary.BinaryPrimitives.ReadUInt32BigEndian(png.AsSpan(png.Length - 4)));
    }

    [Fact]
    public void Encode_Image_DecodesToTheSamePixels()
    {
        var image = Pattern(64, 40);

        var (width, height, rgb) = PngTestReader.Decode(PngEncoder.Encode(image));

        Assert.Equal((64, 40), (width, height));
        Assert.Equal(image.Pixels, rgb);
    }

    [Fact]
    public void Encode_SameImageTwice_GivesTheSameBytes()
    {
        Assert.Equal(PngEncoder.Encode(Pattern(50, 30)), PngEncoder.Encode(Pattern(50, 30)));
    }

    /// <summary>Flat areas, gradients and noise, so every filter type gets chosen somewhere.</summary>
    private static RgbImage Pattern(int width, int height)
    {
        var image = new RgbImage(width, height, Rgb.White);
        var random = new Random(1);
        for (var y = 0; y < height; y++)
        {
            for (var x = 0; x < width; x++)
            {
                var color = y < height / 3 ? new Rgb((byte)(x * 4), (byte)(y * 8), 128)
                    : y < 2 * height / 3 ? new Rgb((byte)random.Next(256), (byte)random.Next(256), (byte)random.Next(256))
                    : new Rgb(20, 40, (byte)(x % 2 == 0 ? 60 : 200));
                image.Blend(x, y, color, 1);
            }
        }

        return image;
    }
}
