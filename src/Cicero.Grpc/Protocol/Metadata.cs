// SPDX-License-Identifier: Apache-2.0

using System.Collections;

namespace Cicero.Grpc.Protocol;

/// <summary>Call headers or trailers: an ordered list of entries whose keys are case-insensitive.</summary>
/// <remarks>Not thread-safe, like the call it belongs to. Keys ending in <c>-bin</c> carry binary values.</remarks>
public sealed class Metadata : IReadOnlyList<MetadataEntry>
{
    /// <summary>The suffix that marks a binary key.</summary>
    public const string BinarySuffix = "-bin";

    // Most metadata on a call carries one entry (Cicero's header, Cicero's trailer), so the first is held inline and
    // only a second one makes an array: a list object and its array per headers and per trailers were a measurable
    // part of every call's garbage.
    private MetadataEntry? _first;
    private MetadataEntry[]? _rest;
    private int _count;
    private int _version;

    /// <summary>Creates empty metadata.</summary>
    public Metadata()
    {
    }

    /// <inheritdoc />
    public int Count => _count;

    /// <inheritdoc />
    public MetadataEntry this[int index]
    {
        get
        {
            if ((uint)index >= (uint)_count)
            {
                throw new ArgumentOutOfRangeException(nameof(index), index, $"The metadata has {_count} entries.");
            }

            return index == 0 ? _first! : _rest![index - 1];
        }
    }

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

        AddRaw(new MetadataEntry(key, value));
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

        AddRaw(new MetadataEntry(key, value));
        return this;
    }

    /// <summary>Removes every entry with a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>Whether any was removed.</returns>
    public bool Remove(string key)
    {
        var kept = 0;
        for (var i = 0; i < _count; i++)
        {
            var entry = this[i];
            if (!string.Equals(entry.Key, key, StringComparison.OrdinalIgnoreCase))
            {
                Set(kept++, entry);
            }
        }

        if (kept == _count)
        {
            return false;
        }

        for (var i = kept; i < _count; i++)
        {
            Set(i, null);
        }

        _count = kept;
        _version++;
        return true;
    }

    /// <summary>Gets the last entry with a key.</summary>
    /// <param name="key">The key.</param>
    /// <returns>The entry, or <see langword="null"/>.</returns>
    public MetadataEntry? Get(string key)
    {
        for (var i = _count - 1; i >= 0; i--)
        {
            var entry = i == 0 ? _first! : _rest![i - 1];
            if (string.Equals(entry.Key, key, StringComparison.OrdinalIgnoreCase))
            {
                return entry;
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
    public Enumerator GetEnumerator() => new(this);

    /// <inheritdoc />
    IEnumerator<MetadataEntry> IEnumerable<MetadataEntry>.GetEnumerator() => GetEnumerator();

    /// <inheritdoc />
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    internal void AddRaw(MetadataEntry entry)
    {
        if (_count == 0)
        {
            _first = entry;
        }
        else
        {
            if (_rest is null)
            {
                _rest = new MetadataEntry[4];
            }
            else if (_count - 1 == _rest.Length)
            {
                Array.Resize(ref _rest, _rest.Length * 2);
            }

            _rest[_count - 1] = entry;
        }

        _count++;
        _version++;
    }

    private void Set(int index, MetadataEntry? entry)
    {
        if (index == 0)
        {
            _first = entry;
        }
        else
        {
            _rest![index - 1] = entry!;
        }
    }

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

    /// <summary>Enumerates metadata entries in the order they were added; adding or removing entries meanwhile is an error.</summary>
    public struct Enumerator : IEnumerator<MetadataEntry>
    {
        private readonly Metadata _metadata;
        private readonly int _version;
        private int _index;

        internal Enumerator(Metadata metadata)
        {
            _metadata = metadata;
            _version = metadata._version;
            _index = -1;
        }

        /// <inheritdoc />
        public readonly MetadataEntry Current => _metadata[_index];

        /// <inheritdoc />
        readonly object IEnumerator.Current => Current;

        /// <inheritdoc />
        public bool MoveNext()
        {
            if (_version != _metadata._version)
            {
                throw new InvalidOperationException("The metadata changed while it was being enumerated.");
            }

            return ++_index < _metadata._count;
        }

        /// <inheritdoc />
        public void Reset() => _index = -1;

        /// <inheritdoc />
        public readonly void Dispose()
        {
        }
    }
}
