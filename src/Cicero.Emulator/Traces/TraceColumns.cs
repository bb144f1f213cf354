// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>The column names of the Cicero trace format, version 1 (<c>traces/README.md</c>).</summary>
public static class TraceColumns
{
    /// <summary>Arrival time in milliseconds since the trace's origin; non-decreasing down the file. Required.</summary>
    public const string ArrivalMs = "arrival_ms";

    /// <summary>The tenant (client, use case) that sent the request. Required.</summary>
    public const string Tenant = "tenant";

    /// <summary>The API or operation, for example <c>get</c> or <c>put</c>. Required.</summary>
    public const string Operation = "op";

    /// <summary>Bytes the client sends (payload written, key); 0 when empty.</summary>
    public const string RequestBytes = "request_bytes";

    /// <summary>Bytes the client receives (payload read); 0 when empty.</summary>
    public const string ResponseBytes = "response_bytes";

    /// <summary>Sub-requests the partition server sends to block servers; empty when the trace does not say.</summary>
    public const string FanOut = "fanout";

    /// <summary>Service time hint at Auth, milliseconds; empty when the trace does not say.</summary>
    public const string AuthMs = "auth_ms";

    /// <summary>Service time hint of the partition server's own compute, milliseconds; empty when the trace does not say.</summary>
    public const string PsMs = "ps_ms";

    /// <summary>Service time hint of one block-server sub-request, milliseconds; empty when the trace does not say.</summary>
    public const string BsMs = "bs_ms";

    /// <summary>Gets every column, in the order the writer writes them.</summary>
    public static IReadOnlyList<string> All { get; } =
        [ArrivalMs, Tenant, Operation, RequestBytes, ResponseBytes, FanOut, AuthMs, PsMs, BsMs];

    /// <summary>Gets the columns a trace must have.</summary>
    public static IReadOnlyList<string> Required { get; } = [ArrivalMs, Tenant, Operation];
}
