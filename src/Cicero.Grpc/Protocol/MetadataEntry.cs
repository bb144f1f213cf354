// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Grpc.Protocol;

/// <summary>One header or trailer: an ASCII value, or a binary value when the key ends in <c>-bin</c>.</summary>
public sealed class MetadataEntry
{
    private readonly string? _value;
    private byte[]? _bytes;

    // A binary value in its wire form (base64): one Cicero made, so that sending it costs no second encoding, or one that
    // arrived and was checked, so that receiving it costs no array unless someone reads ValueBytes.
    private readonly string? _base64;

    internal MetadataEntry(string key, string value)
    {
        Key = key;
        _value = value;
    }

    internal MetadataEntry(string key, byte[] value)
    {
        Key = key;
        _bytes = value;
    }

    private MetadataEntry(string key, byte[]? bytes, string? base64)
    {
        Key = key;
        _bytes = bytes;
        _base64 = base64;
    }

    /// <summary>Gets the key, in lower case.</summary>
    public string Key { get; }

    /// <summary>Gets a value indicating whether the value is binary (the key ends in <c>-bin</c>).</summary>
    public bool IsBinary => _value is null;

    /// <summary>Gets the ASCII value.</summary>
    /// <exception cref="InvalidOperationException">The entry is binary.</exception>
    public string Value => _value ?? throw new InvalidOperationException($"Metadata entry '{Key}' is binary; read ValueBytes.");

    /// <summary>Gets the binary value; for an ASCII entry, its ASCII bytes.</summary>
    public byte[] ValueBytes => _bytes ??= _value is not null ? Encoding.ASCII.GetBytes(_value) : DecodeOwn();

    /// <summary>Gets the value as it goes on the wire: ASCII as is, binary as unpadded base64.</summary>
    internal string WireValue => _value ?? _base64 ?? Base64Metadata.Encode(_bytes!);

    /// <inheritdoc />
    public override string ToString() => IsBinary ? $"{Key}: <{ValueBytes.Length} bytes>" : $"{Key}: {_value}";

    /// <summary>Decodes the binary value into <paramref name="destination"/> without allocating.</summary>
    /// <param name="destination">Where the bytes go.</param>
    /// <param name="written">How many were written.</param>
    /// <returns><see langword="false"/> if the entry is not binary or the value does not fit.</returns>
    internal bool TryCopyValueBytes(Span<byte> destination, out int written)
    {
        written = 0;
        if (_bytes is { } bytes)
        {
            if (bytes.Length > destination.Length)
            {
                return false;
            }

            bytes.CopyTo(destination);
            written = bytes.Length;
            return true;
        }

        return _base64 is not null && Base64Metadata.TryDecode(_base64, destination, out written);
    }

    /// <summary>Creates a binary entry from base64 that arrived on the wire, or <see langword="null"/> if it is not valid base64.</summary>
    /// <param name="key">The key, lower case, ending in <c>-bin</c>.</param>
    /// <param name="base64">The value as received, padded or not.</param>
    /// <returns>The entry, decoded only when read.</returns>
    internal static MetadataEntry? FromReceivedBase64(string key, string base64) =>
        Base64Metadata.IsValid(base64) ? new(key, null, base64) : null;

    /// <summary>Creates a binary entry from its wire form, which the caller has produced itself (so it is valid).</summary>
    /// <param name="key">The key, lower case, ending in <c>-bin</c>.</param>
    /// <param name="base64">The value as unpadded base64.</param>
    /// <returns>The entry.</returns>
    internal static MetadataEntry FromOwnBase64(string key, string base64) => new(key, null, base64);

    private byte[] DecodeOwn() =>
        Base64Metadata.TryDecode(_base64!, out var bytes) ? bytes : throw new InvalidOperationException($"Metadata entry '{Key}' holds invalid base64.");
}
