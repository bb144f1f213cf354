// SPDX-License-Identifier: Apache-2.0

using System.Globalization;

namespace Cicero.Emulator.Reports.Imaging;

/// <summary>An opaque 8-bit-per-channel colour, shared by the SVG and the raster back ends so both draw alike.</summary>
/// <param name="R">Red.</param>
/// <param name="G">Green.</param>
/// <param name="B">Blue.</param>
internal readonly record struct Rgb(byte R, byte G, byte B)
{
    public static Rgb White => new(255, 255, 255);

    public static Rgb Black => new(0, 0, 0);

    /// <summary>Parses <c>#rrggbb</c>.</summary>
    public static Rgb Parse(string hex) =>
        new(
            byte.Parse(hex.AsSpan(1, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture),
            byte.Parse(hex.AsSpan(3, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture),
            byte.Parse(hex.AsSpan(5, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture));

    /// <summary>Gets the colour as <c>#rrggbb</c>, for SVG and CSS.</summary>
    public string ToHex() => string.Create(CultureInfo.InvariantCulture, $"#{R:x2}{G:x2}{B:x2}");
}
