// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Emulator.Traces;

/// <summary>
/// Turns tenant and operation fields into strings without allocating for names seen before, so reading a trace with a
/// bounded set of names allocates nothing per line. Past <see cref="MaxEntries"/> distinct names it stops remembering
/// and allocates, which keeps memory bounded for traces with unbounded names.
/// </summary>
/// <remarks>Not thread-safe: one reader owns it.</remarks>
internal sealed class NameInterner
{
    internal const int MaxEntries = 65_536;
    private const int MaxStackChars = 256;

    private readonly Dictionary<string, string> _names = new(StringComparer.Ordinal);
    private readonly Dictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> _bySpan;

    public NameInterner() => _bySpan = _names.GetAlternateLookup<ReadOnlySpan<char>>();

    public int Count => _names.Count;

    public string Intern(ReadOnlySpan<byte> utf8)
    {
        if (utf8.Length > MaxStackChars)
        {
            return Encoding.UTF8.GetString(utf8);
        }

        Span<char> chars = stackalloc char[MaxStackChars];
        var length = Encoding.UTF8.GetChars(utf8, chars);
        return Intern(chars[..length]);
    }

    public string Intern(ReadOnlySpan<char> chars)
    {
        if (_bySpan.TryGetValue(chars, out var name))
        {
            return name;
        }

        name = chars.ToString();
        if (_names.Count < MaxEntries)
        {
            _names.Add(name, name);
        }

        return name;
    }
}
