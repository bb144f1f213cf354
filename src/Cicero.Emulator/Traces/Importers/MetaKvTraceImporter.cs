// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// Imports Meta's key-value cache trace (<c>kv_traces_*.csv</c>, CacheLib <c>kvcache/202401</c>). Columns are found by
/// name, since the files order them differently. Tenant = <c>usecase</c>; operation = <c>op</c> in lower case
/// (<c>get</c>, <c>get_lease</c>, <c>set</c>, <c>set_lease</c>, <c>delete</c>); each row is <c>op_count</c> requests.
/// Sizes: a <c>SET*</c> sends key and value (<c>key_size + size</c>); a <c>GET*</c> sends the key and receives
/// <c>size</c>; anything else sends the key. Fan-out is 0: the requests are served at the partition server (the
/// dissertation's metadata workflow E). The requests of each second are spread evenly over it.
/// </summary>
/// <remarks>Thread-safe and stateless; memory per enumeration is bounded by the rows of one second.</remarks>
public sealed class MetaKvTraceImporter : ITraceImporter
{
    /// <inheritdoc/>
    public string Format => TraceImport.MetaKv;

    /// <inheritdoc/>
    public IEnumerable<TraceRequest> Import(Stream input, string fileName)
    {
        ArgumentNullException.ThrowIfNull(input);
        ArgumentNullException.ThrowIfNull(fileName);
        return Iterate(input, fileName);
    }

    private static IEnumerable<TraceRequest> Iterate(Stream stream, string fileName)
    {
        using var input = new CsvInput(stream, fileName);
        var time = input.Require("op_time");
        var keySize = input.Require("key_size");
        var operation = input.Require("op");
        var count = input.Require("op_count");
        var size = input.Require("size");
        var usecase = input.Require("usecase");
        var names = new NameInterner();
        var clock = new SecondClock();
        var pending = new List<TraceRequest>();
        while (input.TryReadRow())
        {
            if (clock.Advance(input.Integer(time), input, time, out var previous))
            {
                clock.Spread(pending, previous);
                foreach (var request in pending)
                {
                    yield return request;
                }

                pending.Clear();
            }

            var tenant = ImportNames.Name(input[usecase], names);
            var op = Operation(input[operation], names);
            var copies = input.Integer(count, min: 1, max: ImportLimits.MaxRowCount);
            if (pending.Count + copies > ImportLimits.MaxRequestsPerSecond)
            {
                throw input.Error(count, "more than " + ImportLimits.MaxRequestsPerSecond.ToString("N0", System.Globalization.CultureInfo.InvariantCulture) + " requests in one second of the trace");
            }

            var key = input.Integer(keySize);
            var value = input.Integer(size);
            var (sent, received) = op.StartsWith("set", StringComparison.Ordinal) ? (key + value, 0L)
                : op.StartsWith("get", StringComparison.Ordinal) ? (key, value)
                : (key, 0L);
            for (var k = 0; k < copies; k++)
            {
                pending.Add(new TraceRequest(0, tenant, op, sent, received, FanOut: 0));
            }
        }

        clock.Spread(pending, clock.Current);
        foreach (var request in pending)
        {
            yield return request;
        }
    }

    private static string Operation(ReadOnlySpan<byte> field, NameInterner names)
    {
        // Operations are few (five in the release), so lower-casing through a small stack copy keeps them interned.
        Span<byte> lower = stackalloc byte[TraceNames.MaxLength];
        if (field.Length > lower.Length || Ascii.ToLower(field, lower, out var written) != System.Buffers.OperationStatus.Done)
        {
            return names.Intern(TraceNames.Sanitize(Encoding.UTF8.GetString(field).ToLowerInvariant()));
        }

        return ImportNames.Name(lower[..written], names);
    }
}
