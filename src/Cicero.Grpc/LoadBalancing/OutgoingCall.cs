// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Grpc.LoadBalancing;

/// <summary>
/// Joins a call's pick to its trailers. grpc-dotnet tells a balancer's call tracker only that response headers
/// arrived; the server's replica feedback comes later, in trailers, which only the client interceptor sees. The
/// interceptor makes a slot ambient while it starts the call; the picker runs in the call's flow, finds the slot and
/// binds its tracker to it; when the call ends the interceptor hands the trailers to the bound tracker.
/// </summary>
internal class OutgoingCall
{
    private static readonly AsyncLocal<OutgoingCall?> Ambient = new();

    private ReplicaCallTracker? _tracker;
    private int _state;

    private const int Abandoned = 1;

    /// <summary>Gets the slot of the call being started in this flow, if an interceptor opened one.</summary>
    public static OutgoingCall? Current => Ambient.Value;

    /// <summary>Gets a value indicating whether a tracker is bound (the call went through a Cicero balancer).</summary>
    public bool IsBound => Volatile.Read(ref _tracker) is not null;

    /// <summary>Makes <paramref name="call"/> ambient; returns the previous slot, to restore.</summary>
    protected static OutgoingCall? Enter(OutgoingCall? call)
    {
        var previous = Ambient.Value;
        Ambient.Value = call;
        return previous;
    }

    /// <summary>Restores the previous slot.</summary>
    protected static void Exit(OutgoingCall? previous) => Ambient.Value = previous;

    /// <summary>Called by the picker: the tracker waits for this call's trailers unless the interceptor gave up.</summary>
    /// <returns><see langword="true"/> if the interceptor will report the trailers.</returns>
    public bool Bind(ReplicaCallTracker tracker)
    {
        Volatile.Write(ref _tracker, tracker);
        return Volatile.Read(ref _state) != Abandoned;
    }

    /// <summary>Called by the interceptor when it will not report (the call needs no tracking of its own).</summary>
    public void Abandon()
    {
        Interlocked.Exchange(ref _state, Abandoned);
        Volatile.Read(ref _tracker)?.FinishWithoutTrailers();
    }

    /// <summary>Hands the call's end to the bound tracker, if any.</summary>
    /// <param name="result">The call's <c>cicero-result-bin</c> trailer, decoded (not valid when it had none).</param>
    /// <param name="hasTrailers">Whether the call ended with trailers at all (a response from the replica).</param>
    /// <param name="status">The call's status.</param>
    public void Report(in Context.DecodedResultTrailer result, bool hasTrailers, global::Grpc.Core.StatusCode status) =>
        Volatile.Read(ref _tracker)?.OnCallEnded(result, hasTrailers, status);
}
