// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Text;

namespace Cicero.Grpc.Context;

/// <summary>
/// Process and instance ids as they travel inside Cicero's binary metadata (printable ASCII without spaces, at most
/// 255 bytes), and a bounded cache that turns the bytes back into strings without allocating for ids seen before: a
/// server sees the same few callers, and a client the same few instances, on every call.
/// </summary>
internal sealed class CallerIds
{
    public const int MaxLength = byte.MaxValue;

    // A process has a few callers (its upstream instances) and calls a few instances; ids past this are not cached.
    private const int MaxCached = 1024;
    private const int RecentSlots = 8;

    // Sized up front so the table never grows: a resize would copy every entry on one unlucky call, and a flood of
    // distinct ids (found by the server-path fuzz) would make that call allocate hundreds of kilobytes.
    private readonly ConcurrentDictionary<string, string> _known = new(concurrencyLevel: 4, capacity: 4 * MaxCached, StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, string>.AlternateLookup<ReadOnlySpan<char>> _lookup;
    private readonly Recent?[] _recent = new Recent?[RecentSlots];

    public CallerIds() => _lookup = _known.GetAlternateLookup<ReadOnlySpan<char>>();

    public static bool IsValid(ReadOnlySpan<byte> id)
    {
        if (id.Length > MaxLength)
        {
            return false;
        }

        foreach (var b in id)
        {
            if (b is < 0x21 or > 0x7E)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>The bytes of <paramref name="id"/>, or an exception that names the problem.</summary>
    public static byte[] Encode(string id, string what)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(id, what);
        var bytes = Encoding.ASCII.GetBytes(id);
        if (id.Length > MaxLength || !IsValid(bytes) || id.Any(c => c > 0x7E))
        {
            throw new ArgumentException($"The {what} '{id}' must be 1-{MaxLength} printable ASCII characters without spaces.", what);
        }

        return bytes;
    }

    /// <summary>The id as a string; valid ids only (<see cref="IsValid"/>).</summary>
    public string Get(ReadOnlySpan<byte> id)
    {
        // A process hears from a handful of callers and calls a handful of instances: the first few ids seen keep a
        // slot each, found by their length and last byte, so the common call costs one comparison, not a lookup.
        var slot = id.IsEmpty ? 0 : (id.Length + id[^1]) & (RecentSlots - 1);
        if (Volatile.Read(ref _recent[slot]) is { } recent && id.SequenceEqual(recent.Bytes))
        {
            return recent.Id;
        }

        var found = Lookup(id);
        if (_recent[slot] is null)
        {
            Interlocked.CompareExchange(ref _recent[slot], new Recent(id.ToArray(), found), null);
        }

        return found;
    }

    private string Lookup(ReadOnlySpan<byte> id)
    {
        Span<char> chars = stackalloc char[MaxLength];
        for (var i = 0; i < id.Length; i++)
        {
            chars[i] = (char)id[i];
        }

        var key = chars[..id.Length];
        if (_lookup.TryGetValue(key, out var known))
        {
            return known;
        }

        var value = key.ToString();
        if (_known.Count < MaxCached)
        {
            _known.TryAdd(value, value);
        }

        return value;
    }

    private sealed record Recent(byte[] Bytes, string Id);
}
