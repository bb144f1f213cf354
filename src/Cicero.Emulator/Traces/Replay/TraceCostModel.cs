// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>
/// Turns a trace request's sizes into service times on the FE -> Auth -> PS -> BS topology, where the trace gives no
/// hints: a fixed Auth cost, PS compute linear in the bytes passing through, and per block-server sub-request a seek
/// plus a transfer of its share of the data. A hint in the trace (<c>auth_ms</c>, <c>ps_ms</c>, <c>bs_ms</c>,
/// <c>fanout</c>) wins over the model.
/// </summary>
/// <remarks>
/// Defaults describe a disk-backed store (4 ms seek, 150 MB/s) behind partition servers that touch data at 1 GB/s;
/// they are modelling choices, not measurements (<c>traces/README.md</c>). <see cref="Evaluate"/> does not change the
/// model, so several threads may call it once it is configured; a plan keeps its own copy.
/// </remarks>
public sealed class TraceCostModel
{
    /// <summary>Gets or sets the Auth service time, ms.</summary>
    /// <value>1, as the default scenario's Auth stage.</value>
    public double AuthMs { get; set; } = 1;

    /// <summary>Gets or sets the PS compute time of a request with no bytes, ms.</summary>
    /// <value>0.5.</value>
    public double PsBaseMs { get; set; } = 0.5;

    /// <summary>Gets or sets how many bytes (request plus response) the PS handles per millisecond of compute.</summary>
    /// <value>1,000,000 (1 GB/s).</value>
    public double PsBytesPerMs { get; set; } = 1_000_000;

    /// <summary>Gets or sets the fixed cost of one block-server sub-request, ms.</summary>
    /// <value>4 (a disk seek).</value>
    public double BsSeekMs { get; set; } = 4;

    /// <summary>Gets or sets how many bytes a block server transfers per millisecond.</summary>
    /// <value>150,000 (150 MB/s).</value>
    public double BsBytesPerMs { get; set; } = 150_000;

    /// <summary>Gets or sets the fan-out of requests whose trace line leaves it empty.</summary>
    /// <value>1.</value>
    public int DefaultFanOut { get; set; } = 1;

    /// <summary>
    /// Gets or sets the operations that write: their data is the request's bytes and their block-server calls go to
    /// the block's primary copy; every other operation reads its response's bytes from a copy the selector picks.
    /// </summary>
    /// <value>put, set, set_lease, write, delete.</value>
    public ISet<string> WriteOperations { get; set; } = new HashSet<string>(StringComparer.Ordinal) { "put", "set", "set_lease", "write", "delete" };

    /// <summary>Computes one request's fan-out and service times.</summary>
    /// <param name="request">The request.</param>
    /// <returns>Its costs.</returns>
    public TraceStageCosts Evaluate(in TraceRequest request)
    {
        var fanOut = request.FanOut ?? DefaultFanOut;
        var isWrite = WriteOperations.Contains(request.Operation);
        var psMs = request.PsMs ?? PsBaseMs + ((request.RequestBytes + request.ResponseBytes) / PsBytesPerMs);
        double bsMs = 0;
        if (fanOut > 0)
        {
            var data = isWrite ? request.RequestBytes : request.ResponseBytes;
            bsMs = request.BsMs ?? BsSeekMs + ((double)data / fanOut / BsBytesPerMs);
        }

        return new TraceStageCosts(fanOut, request.AuthMs ?? AuthMs, psMs, bsMs, isWrite);
    }

    /// <summary>Copies the model, so a plan keeps the costs it was made with if the caller changes the options later.</summary>
    internal TraceCostModel Clone() => new()
    {
        AuthMs = AuthMs,
        PsBaseMs = PsBaseMs,
        PsBytesPerMs = PsBytesPerMs,
        BsSeekMs = BsSeekMs,
        BsBytesPerMs = BsBytesPerMs,
        DefaultFanOut = DefaultFanOut,
        WriteOperations = new HashSet<string>(WriteOperations, StringComparer.Ordinal),
    };

    internal void Validate()
    {
        if (!(AuthMs >= 0 && PsBaseMs >= 0 && BsSeekMs >= 0 && PsBytesPerMs > 0 && BsBytesPerMs > 0 && DefaultFanOut >= 0))
        {
            throw new ArgumentException("Cost model: times must be >= 0, rates > 0 and the default fan-out >= 0.");
        }

        ArgumentNullException.ThrowIfNull(WriteOperations);
    }
}
