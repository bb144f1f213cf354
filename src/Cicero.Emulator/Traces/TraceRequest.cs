// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces;

/// <summary>One request of a trace: one line of the Cicero trace format (<c>traces/README.md</c>).</summary>
/// <param name="ArrivalMs">Arrival time in milliseconds since the trace's origin (column <c>arrival_ms</c>).</param>
/// <param name="Tenant">The tenant that sent the request (column <c>tenant</c>).</param>
/// <param name="Operation">The API or operation (column <c>op</c>).</param>
/// <param name="RequestBytes">Bytes sent by the client (column <c>request_bytes</c>).</param>
/// <param name="ResponseBytes">Bytes returned to the client (column <c>response_bytes</c>).</param>
/// <param name="FanOut">Partition-server to block-server sub-requests; <see langword="null"/> when unknown (column <c>fanout</c>).</param>
/// <param name="AuthMs">Service time hint at Auth, ms; <see langword="null"/> when unknown (column <c>auth_ms</c>).</param>
/// <param name="PsMs">Service time hint of the partition server's compute, ms; <see langword="null"/> when unknown (column <c>ps_ms</c>).</param>
/// <param name="BsMs">Service time hint of one block-server sub-request, ms; <see langword="null"/> when unknown (column <c>bs_ms</c>).</param>
public readonly record struct TraceRequest(
    double ArrivalMs,
    string Tenant,
    string Operation,
    long RequestBytes,
    long ResponseBytes,
    int? FanOut = null,
    double? AuthMs = null,
    double? PsMs = null,
    double? BsMs = null);
