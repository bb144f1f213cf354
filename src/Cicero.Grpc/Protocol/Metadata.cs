// SPDX-License-Identifier: Apache-2.0

using System.Collections;

namespace Cicero.Grpc.Protocol;

/// <summary>Call headers or trailers: an ordered list of entries whose keys are case-insensitive.</summary>
/// <remarks>Not thread-safe, like the call it belongs to. Keys ending in <c>-bin</c> carry binary values.</remarks>
public sealed class Metadata : IReadOnlyList<MetadataEntry>
{
    /// <summary>The suffix that marks a binary key.</summary>
    public const string BinarySuffix = "-bin";

    private readonly List<MetadataEntry> _entries;

    /// <summary>Creates empty metadata.</summary>
    public Metadata() => _entries = [];

    internal Metadata(int capacity) => _entries = new List<MetadataEntry>(capacity);

    /// <inheritdoc />
    public int Count => _entries.Count;

    /// <inheritdoc />
    public MetadataEntry this[int index] => _entries[index];

    /// <summary>Adds an ASCII entry.</summary>
    /// <param name="key">The key; must not end in <c>-bin</c>.</param>
    /// <param name="value">The value: printable ASCII.</param>
    /// <returns>This instance.</returns>
    public Metadata Add(string key, string value)
    {
        key = NormalizeKey(key);
        ArgumentNullException.ThrowIfNull(value);
        if (key.EndsWith(BinarySuffix, StringComparison.Ordinal))
        {
            throw new ArgumentException($"Key '{key}' is binary (ends in '-bin'); add a byte[] value.", nameof(key));
        }

        foreach (var c in value)
        {
            if (c < 0x20 || c > 0x7E)
            {
                throw new ArgumentException($"The value of '{key}' must be printable ASCII; found U+{(int)c:X4}.", nameof(value));
            }
        }

        _entries.Add(new MetadataEntry(key, value));
        return this;
    }

    /// <summary>Adds a binary entry.</summary>
    /// <param name="key">The key; must end in <c>-bin</c>.</param>
    /// <param name="value">The value.</param>
    /// <returns>This instance.</returns>
    public Metadata Add(string key, byte[] value)
    {
        key = NormalizeKey(key);
        ArgumentNullException.ThrowIfNull(value);
        if (!key.EndsWith(BinarySuffix, StringComparison.Ordinal))
        {
            throw new ArgumentException($"Key '{key}' must end in '-bin' to carry a binary value.", nameof(key));
        }

        _entries.Add(new MetadataEntry(key, value));
        return this;
    }

    /// <summary>Removes every entry with a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>Whether any was removed.</returns>
    public bool Remove(string key) => _entries.RemoveAll(e => string.Equals(e.Key, key, StringComparison.OrdinalIgnoreCase)) > 0;

    /// <summary>Gets the last entry with a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>The entry, or <see langword="null"/>.</returns>
    public MetadataEntry? Get(string key)
    {
        for (var i = _entries.Count - 1; i >= 0; i--)
        {
            if (string.Equals(_entries[i].Key, key, StringComparison.OrdinalIgnoreCase))
            {
                return _entries[i];
            }
        }

        return null;
    }

    /// <summary>Gets the ASCII value of the last entry with a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>The value, or <see langword="null"/>.</returns>
    public string? GetValue(string key) => Get(key) is { IsBinary: false } entry ? entry.Value : null;

    /// <summary>Gets the binary value of the last entry with a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>The value, or <see langword="null"/>.</returns>
    public byte[]? GetValueBytes(string key) => Get(key)?.ValueBytes;

    /// <summary>Decodes the last binary value of <paramref name="key"/> into <paramref name="destination"/>, allocating nothing.</summary>
    /// <param name="key">The key.</param>
    /// <param name="destination">Where the bytes go.</param>
    /// <param name="written">How many were written.</param>
    /// <returns><see langword="false"/> if there is no such binary entry or it does not fit.</returns>
    internal bool TryCopyValueBytes(string key, Span<byte> destination, out int written)
    {
        written = 0;
        return Get(key) is { IsBinary: true } entry && entry.TryCopyValueBytes(destination, out written);
    }

    /// <summary>Gets an enumerator over the entries, in the order they were added.</summary>
    /// <returns>A struct enumerator, so <c>foreach</c> over metadata allocates nothing (it runs on every call).</returns>
    public List<MetadataEntry>.Enumerator GetEnumerator() => _entries.GetEnumerator();

    /// <inheritdoc />
    IEnumerator<MetadataEntry> IEnumerable<MetadataEntry>.GetEnumerator() => _entries.GetEnumerator();

    /// <inheritdoc />
    IEnumerator IEnumerable.GetEnumerator() => _entries.GetEnumerator();

    internal void AddRaw(MetadataEntry entry) => _entries.Add(entry);

    private static string NormalizeKey(string key)
    {
        ArgumentException.ThrowIfNullOrEmpty(key);
        foreach (var c in key)
        {
            if (!(c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' or '-' or '_' or '.'))
            {
                throw new ArgumentException($"Metadata key '{key}' has the character '{c}'; keys use 0-9 a-z - _ . only.", nameof(key));
            }
        }

        return key.ToLowerInvariant();
    }
}
