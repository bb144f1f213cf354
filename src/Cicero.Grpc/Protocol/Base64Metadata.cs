// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.Protocol;

/// <summary>Binary header values: base64, sent without padding and accepted with or without it.</summary>
internal static class Base64Metadata
{
    public static string Encode(byte[] value) => Convert.ToBase64String(value).TrimEnd('=');

    public static bool TryDecode(string value, out byte[] bytes)
    {
        bytes = [];
        var padding = (4 - (value.Length % 4)) % 4;
        if (padding == 3)
        {
            return false;
        }

        var padded = padding == 0 ? value : value + new string('=', padding);
        var buffer = new byte[(padded.Length / 4) * 3];
        if (!Convert.TryFromBase64String(padded, buffer, out var written))
        {
            return false;
        }

        bytes = written == buffer.Length ? buffer : buffer.AsSpan(0, written).ToArray();
        return true;
    }
}
