// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reports.Imaging;

/// <summary>
/// A built-in 5 × 7 pixel font (with a one-row descender, 5 × 8 cells) covering printable ASCII plus σ, Σ, µ, ×, · and ∞,
/// drawn at an integer scale. No imaging library is available here (docs/dependencies.md), and a chart needs only
/// short labels, so a bitmap font is enough and keeps the PNG output identical on every machine.
/// </summary>
/// <remarks>
/// Each glyph is one number: bit (row × 5 + column) is set where the pixel is ink, rows 0-6 the body and row 7 the
/// descender (g, j, p, q, y, µ). The glyphs were drawn for this project as 5 × 7 ASCII art; characters outside the set
/// draw as '?'.
/// </remarks>
internal static class BitmapFont
{
    /// <summary>The glyph's width in font pixels.</summary>
    public const int GlyphWidth = 5;

    /// <summary>The cell's height in font pixels, descender included.</summary>
    public const int CellHeight = 8;

    /// <summary>The horizontal advance per character, in font pixels (the glyph and one pixel of spacing).</summary>
    public const int Advance = GlyphWidth + 1;

    /// <summary>Glyphs of ' ' (32) to '~' (126).</summary>
    private static readonly ulong[] Ascii =
    [
        0x0000000000, 0x0100421084, 0x000000294A, 0x0295F57D4A, // ' ' '!' '"' '#'
        0x011F4717C4, 0x0632222263, 0x0593511526, 0x0000001084, // '$' '%' '&' "'"
        0x0208210888, 0x0088842082, 0x0009575480, 0x00084F9080, // '(' ')' '*' '+'
        0x0088600000, 0x00000F8000, 0x018C000000, 0x0002222200, // ',' '-' '.' '/'
        0x03A33AE62E, 0x03884210C4, 0x07C444422E, 0x03A304111F, // '0' '1' '2' '3'
        0x0211F4A988, 0x03A3083C3F, 0x03A317844C, 0x008422221F, // '4' '5' '6' '7'
        0x03A317462E, 0x01910F462E, 0x000C6018C0, 0x00886018C0, // '8' '9' ':' ';'
        0x0208208888, 0x0001F07C00, 0x0088882082, 0x010044422E, // '<' '=' '>' '?'
        0x03AB5B422E, 0x04631FC62E, 0x03E317C62F, 0x03A210862E, // '@' 'A' 'B' 'C'
        0x01D318C527, 0x07C217843F, 0x004217843F, 0x07A31E862E, // 'D' 'E' 'F' 'G'
        0x04631FC631, 0x038842108E, 0x019284211C, 0x0452519531, // 'H' 'I' 'J' 'K'
        0x07C2108421, 0x04631AD771, 0x04639ACE31, 0x03A318C62E, // 'L' 'M' 'N' 'O'
        0x004217C62F, 0x059358C62E, 0x045257C62F, 0x03E107043E, // 'P' 'Q' 'R' 'S'
        0x010842109F, 0x03A318C631, 0x011518C631, 0x02AB5AC631, // 'T' 'U' 'V' 'W'
        0x0462A22A31, 0x0108422A31, 0x07C222221F, 0x038421084E, // 'X' 'Y' 'Z' '['
        0x0020820820, 0x039084210E, 0x0000004544, 0x07C0000000, // '\\' ']' '^' '_'
        0x0000002082, 0x07A3E83800, 0x03E319B421, 0x03A210B800, // '`' 'a' 'b' 'c'
        0x07A31CDA10, 0x0383F8B800, 0x0084238A4C, 0x743D18F800, // 'd' 'e' 'f' 'g'
        0x046319B421, 0x0388421804, 0x3250843008, 0x024A32A421, // 'h' 'i' 'j' 'k'
        0x0388421086, 0x056B5AAC00, 0x046319B400, 0x03A318B800, // 'l' 'm' 'n' 'o'
        0x085F18BC00, 0x843D18F800, 0x004219B400, 0x03E0E0F800, // 'p' 'q' 'r' 's'
        0x0324211C42, 0x05B318C400, 0x011518C400, 0x02AB58C400, // 't' 'u' 'v' 'w'
        0x0454454400, 0x743D18C400, 0x07C4447C00, 0x0208411088, // 'x' 'y' 'z' '{'
        0x0108421084, 0x0088441082, 0x00008A8800, // '|' '}' '~'
    ];

    private static readonly (char Character, ulong Bits)[] Extra =
    [
        ('σ', 0x03A314F800),
        ('Σ', 0x07C222083F),
        ('µ', 0x0B6718C400),
        ('×', 0x0022A22A20),
        ('·', 0x0000020000),
        ('∞', 0x0000AAA800),
    ];

    /// <summary>Gets the width of <paramref name="text"/> in image pixels at <paramref name="scale"/>, without trailing spacing.</summary>
    public static int MeasureWidth(string text, int scale) => text.Length == 0 ? 0 : ((text.Length * Advance) - 1) * scale;

    /// <summary>Gets a character's glyph bits.</summary>
    public static ulong GlyphOf(char character)
    {
        if (character >= ' ' && character <= '~')
        {
            return Ascii[character - ' '];
        }

        foreach (var (extra, bits) in Extra)
        {
            if (extra == character)
            {
                return bits;
            }
        }

        return Ascii['?' - ' '];
    }

    /// <summary>
    /// Draws <paramref name="text"/> with its cell's top-left corner at (<paramref name="x"/>, <paramref name="y"/>);
    /// when <paramref name="vertical"/>, the text runs upwards (rotated 90° anticlockwise) from that corner, which is
    /// then the bottom-left.
    /// </summary>
    public static void Draw(RgbImage image, int x, int y, string text, int scale, Rgb color, bool vertical = false)
    {
        for (var c = 0; c < text.Length; c++)
        {
            var bits = GlyphOf(text[c]);
            var offset = c * Advance;
            for (var row = 0; row < CellHeight; row++)
            {
                for (var column = 0; column < GlyphWidth; column++)
                {
                    if ((bits & (1UL << ((row * GlyphWidth) + column))) == 0)
                    {
                        continue;
                    }

                    // Font pixel (u, v) = (offset + column, row); upright it sits at (x + u, y + v), rotated at (x + v, y - u).
                    var u = (offset + column) * scale;
                    var v = row * scale;
                    var (left, top) = vertical ? (x + v, y - u - scale) : (x + u, y + v);
                    for (var dy = 0; dy < scale; dy++)
                    {
                        for (var dx = 0; dx < scale; dx++)
                        {
                            image.Blend(left + dx, top + dy, color, 1);
                        }
                    }
                }
            }
        }
    }
}
