// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Traces.Replay;

/// <summary>Plays a trace several times back to back, so that a short sample lasts long enough for rate control to act.</summary>
public static class TraceRepetition
{
    /// <summary>
    /// A re-enumerable sequence of <paramref name="source"/>'s requests played <paramref name="repeats"/> times, each copy
    /// starting <paramref name="gapMs"/> after the previous one's last arrival.
    /// </summary>
    /// <param name="source">Opens the trace anew for each copy (a file is read again, never held in memory).</param>
    /// <param name="repeats">How many copies, at least 1.</param>
    /// <param name="gapMs">The pause between copies, in milliseconds.</param>
    /// <returns>The requests, arrivals shifted for each copy.</returns>
    public static IEnumerable<TraceRequest> BackToBack(Func<IEnumerable<TraceRequest>> source, int repeats, double gapMs = 1000)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentOutOfRangeException.ThrowIfLessThan(repeats, 1);
        if (!(gapMs >= 0 && double.IsFinite(gapMs)))
        {
            throw new ArgumentOutOfRangeException(nameof(gapMs), gapMs, "Must be a non-negative number of milliseconds.");
        }

        return new Repeated(source, repeats, gapMs);
    }

    private sealed class Repeated(Func<IEnumerable<TraceRequest>> source, int repeats, double gapMs) : IEnumerable<TraceRequest>
    {
        public IEnumerator<TraceRequest> GetEnumerator()
        {
            double offset = 0;
            for (var k = 0; k < repeats; k++)
            {
                double last = 0;
                foreach (var request in source())
                {
                    last = request.ArrivalMs;
                    yield return request with { ArrivalMs = request.ArrivalMs + offset };
                }

                offset += last + gapMs;
            }
        }

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }
}
