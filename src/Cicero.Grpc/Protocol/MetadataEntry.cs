// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Grpc.Protocol;

/// <summary>One header or trailer: an ASCII value, or a binary value when the key ends in <c>-bin</c>.</summary>
public sealed class MetadataEntry
{
    private readonly byte[]? _bytes;
    private readonly string? _value;

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

    /// <summary>Gets the key, in lower case.</summary>
    public string Key { get; }

    /// <summary>Gets a value indicating whether the value is binary (the key ends in <c>-bin</c>).</summary>
    public bool IsBinary => _bytes is not null;

    /// <summary>Gets the ASCII value.</summary>
    /// <exception cref="InvalidOperationException">The entry is binary.</exception>
    public string Value => _value ?? throw new InvalidOperationException($"Metadata entry '{Key}' is binary; read ValueBytes.");

    /// <summary>Gets the binary value; for an ASCII entry, its ASCII bytes.</summary>
    public byte[] ValueBytes => _bytes ?? Encoding.ASCII.GetBytes(_value!);

    /// <inheritdoc />
    public override string ToString() => IsBinary ? $"{Key}: <{_bytes!.Length} bytes>" : $"{Key}: {_value}";
}
