// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Benchmarks;

/// <summary>What one benchmark server's <see cref="EchoService"/> does besides echoing (a singleton of its container).</summary>
/// <param name="handlerWork">CPU time the handler spends before it answers; zero for an empty echo.</param>
/// <param name="wireTrailer">
/// When set, the value of a <c>cicero-result-bin</c> trailer the handler adds by hand (the "wire only" variant: Cicero's
/// metadata without Cicero's code).
/// </param>
/// <param name="countCalls">Whether the handler counts its calls (an interlocked add per call; for set-up checks).</param>
internal sealed class EchoServerSettings(TimeSpan handlerWork, byte[]? wireTrailer = null, bool countCalls = false)
{
    private long _calls;

    public TimeSpan HandlerWork => handlerWork;

    public byte[]? WireTrailer => wireTrailer;

    /// <summary>Gets the number of calls served, when <c>countCalls</c> was set.</summary>
    public long Calls => Interlocked.Read(ref _calls);

    public void OnCall()
    {
        if (countCalls)
        {
            Interlocked.Increment(ref _calls);
        }
    }
}
