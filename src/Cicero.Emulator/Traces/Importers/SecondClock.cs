// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Importers;

/// <summary>
/// The 1-second clock of the Meta traces: rows carry whole seconds, so an importer collects one second's requests and
/// then spreads them evenly over that second (request i of n at i/n s), which keeps their order and makes arrivals
/// strictly increase within the second. The origin (arrival 0) is the first row's second.
/// </summary>
/// <remarks>Not thread-safe: one enumeration owns it.</remarks>
internal sealed class SecondClock
{
    private long _origin = -1;

    /// <summary>Gets the second being collected.</summary>
    public long Current { get; private set; } = -1;

    /// <summary>Gets whether a row has been seen.</summary>
    public bool Started => _origin >= 0;

    /// <summary>Moves to a row's second.</summary>
    /// <param name="second">The row's second.</param>
    /// <param name="input">The input, for the error.</param>
    /// <param name="column">The time column, for the error.</param>
    /// <param name="previous">The second collected until now, when a new one starts.</param>
    /// <returns><see langword="true"/> when the row starts a new second, so the collected one must be emitted first.</returns>
    /// <exception cref="TraceFormatException">The row's second is earlier than the current one.</exception>
    public bool Advance(long second, CsvInput input, int column, out long previous)
    {
        previous = Current;
        if (_origin < 0)
        {
            _origin = second;
            Current = second;
            return false;
        }

        if (second < Current)
        {
            throw input.Error(column, $"rows must be in time order; the previous row's second was {Current}");
        }

        Current = second;
        return second > previous;
    }

    /// <summary>Sets the arrival times of one second's requests, in place.</summary>
    /// <param name="requests">The requests, in the order they should arrive.</param>
    /// <param name="second">Their second.</param>
    public void Spread(List<TraceRequest> requests, long second)
    {
        var start = (second - _origin) * 1000.0;
        var step = 1000.0 / requests.Count;
        for (var i = 0; i < requests.Count; i++)
        {
            requests[i] = requests[i] with { ArrivalMs = start + (i * step) };
        }
    }
}
