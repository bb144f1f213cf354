// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;

namespace Cicero.Grpc.Classification;

/// <summary>
/// Reads a text request header. Under ASP.NET Core it is read from the HTTP request:
/// <see cref="ServerCallContext.RequestHeaders"/> converts every header on first use and throws on a malformed
/// <c>-bin</c> header of someone else's, which would fail a call that plain grpc-dotnet serves.
/// </summary>
internal static class RequestHeaderText
{
    /// <summary>Reads a header's first value.</summary>
    /// <param name="context">The call.</param>
    /// <param name="key">The header's name, lower case.</param>
    /// <returns>The value, or <see langword="null"/> when the header is missing.</returns>
    public static string? Read(ServerCallContext context, string key)
    {
        Microsoft.AspNetCore.Http.HttpContext? http;
        try
        {
            // Under ASP.NET Core this is a type test; outside it (test doubles, custom hosts) it throws.
            http = context.GetHttpContext();
        }
        catch (InvalidOperationException)
        {
            http = null;
        }

        if (http is null)
        {
            return context.RequestHeaders.GetValue(key);
        }

        return http.Request.Headers.TryGetValue(key, out var values) && values.Count > 0 ? values[0] : null;
    }
}
