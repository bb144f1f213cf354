// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// Imports Meta's Tectonic block-storage trace (<c>block_traces_*.csv</c>, CacheLib <c>storage/202312</c>): each row is
/// one chunk I/O at a storage host. Tenant = <c>user_name</c>. <c>getChunkData.*</c> rows of one tenant, block and second
/// become one <c>get</c> request whose fan-out is the number of chunks read (the PS -> BS fan-out) and whose response is
/// their bytes; each <c>putChunk.*</c> row becomes one <c>put</c> request of fan-out 1. <c>op_count</c> repeats a row:
/// copy k of every row of a group joins the group's k-th request. The requests of each second are spread evenly over it.
/// </summary>
/// <remarks>Thread-safe and stateless; memory per enumeration is bounded by the rows of one second.</remarks>
public sealed class MetaBlockTraceImporter : ITraceImporter
{
    /// <summary>The operation name of grouped chunk reads.</summary>
    public const string GetOperation = "get";

    /// <summary>The operation name of chunk writes.</summary>
    public const string PutOperation = "put";

    /// <inheritdoc/>
    public string Format => TraceImport.MetaBlock;

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
        var block = input.Require("block_id");
        var size = input.Require("io_size");
        var user = input.Require("user_name");
        var operation = input.Require("op_name");
        var count = input.Require("op_count");
        var names = new NameInterner();
        var clock = new SecondClock();
        var second = new SecondOfRows();
        while (input.TryReadRow())
        {
            if (clock.Advance(input.Integer(time), input, time, out var previous))
            {
                foreach (var request in second.Drain(clock, previous))
                {
                    yield return request;
                }
            }

            var tenant = ImportNames.Name(input[user], names);
            var copies = (int)input.Integer(count, min: 1, max: ImportLimits.MaxRowCount);
            if (second.Requests + copies > ImportLimits.MaxRequestsPerSecond)
            {
                throw input.Error(count, "more than " + ImportLimits.MaxRequestsPerSecond.ToString("N0", System.Globalization.CultureInfo.InvariantCulture) + " requests in one second of the trace");
            }

            var bytes = input.Integer(size);
            var op = input[operation];
            if (op.StartsWith("getChunkData"u8))
            {
                // Block ids are unbounded, so they are not interned; they live for one second.
                second.AddGet(tenant, Encoding.UTF8.GetString(input[block]), copies, bytes);
            }
            else if (op.StartsWith("putChunk"u8))
            {
                second.AddPut(tenant, copies, bytes);
            }
            else
            {
                throw input.Error(operation, "expected getChunkData.* or putChunk.*");
            }
        }

        if (clock.Started)
        {
            foreach (var request in second.Drain(clock, clock.Current))
            {
                yield return request;
            }
        }
    }

    /// <summary>One second's rows, grouped, in the order of each group's first row.</summary>
    private sealed class SecondOfRows
    {
        private readonly List<Entry> _entries = [];
        private readonly Dictionary<(string Tenant, string Block), int> _groups = [];
        private readonly List<TraceRequest> _output = [];

        /// <summary>Gets an upper bound of the requests collected: every copy of every row.</summary>
        public long Requests { get; private set; }

        public void AddPut(string tenant, int copies, long bytes)
        {
            Requests += copies;
            _entries.Add(new Entry(tenant, [(1, bytes)], copies));
        }

        public void AddGet(string tenant, string block, int copies, long bytes)
        {
            if (!_groups.TryGetValue((tenant, block), out var index))
            {
                index = _entries.Count;
                _groups.Add((tenant, block), index);
                _entries.Add(new Entry(tenant, [], PutCopies: 0));
            }

            // Copy k of this row is one more chunk read in the group's k-th request.
            Requests += copies;
            var requests = _entries[index].Requests;
            for (var k = 0; k < copies; k++)
            {
                if (k == requests.Count)
                {
                    requests.Add((0, 0L));
                }

                requests[k] = (requests[k].FanOut + 1, requests[k].Bytes + bytes);
            }
        }

        /// <summary>Emits the collected requests at their times within <paramref name="second"/> and clears them.</summary>
        /// <returns>The requests; valid until the next call.</returns>
        public List<TraceRequest> Drain(SecondClock clock, long second)
        {
            _output.Clear();
            foreach (var entry in _entries)
            {
                for (var k = 0; k < entry.PutCopies; k++)
                {
                    _output.Add(new TraceRequest(0, entry.Tenant, PutOperation, entry.Requests[0].Bytes, 0, FanOut: 1));
                }

                if (entry.PutCopies == 0)
                {
                    foreach (var (fanOut, bytes) in entry.Requests)
                    {
                        _output.Add(new TraceRequest(0, entry.Tenant, GetOperation, 0, bytes, fanOut));
                    }
                }
            }

            clock.Spread(_output, second);
            Requests = 0;
            _entries.Clear();
            _groups.Clear();
            return _output;
        }
    }

    private sealed record Entry(string Tenant, List<(int FanOut, long Bytes)> Requests, int PutCopies);
}
