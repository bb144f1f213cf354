// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Context;

/// <summary>
/// The b counters of one request at one hop: local work plus the progress reported by completed downstream calls.
/// </summary>
/// <remarks>
/// Thread-safe and lock-free: parallel branches of the same request add to it concurrently. Every
/// <see cref="RequestContext"/> derived within a hop shares one instance;
/// <see cref="RequestContext.ForDownstreamCall"/> starts a fresh one for the child.
/// </remarks>
public sealed class RequestProgress
{
    private double _serviceTime;
    private double _load;

    /// <summary>Creates progress counters with starting values.</summary>
    /// <param name="initial">The starting b counters, as decoded from the wire.</param>
    /// <exception cref="ArgumentException">A counter is negative or not finite.</exception>
    public RequestProgress(ProgressDelta initial = default)
    {
        if (initial.Validate() is { } error)
        {
            throw new ArgumentException(error, nameof(initial));
        }

        _serviceTime = initial.ServiceTime;
        _load = initial.Load;
    }

    /// <summary>Gets the counters accrued so far.</summary>
    public ProgressDelta Current => new(Volatile.Read(ref _serviceTime), Volatile.Read(ref _load));

    /// <summary>Adds work done in this process, such as a sub-task served by a resource.</summary>
    /// <param name="serviceSeconds">Seconds of service.</param>
    /// <param name="load">Demand divided by capacity.</param>
    /// <exception cref="ArgumentException">A value is negative or not finite.</exception>
    public void AddLocalWork(double serviceSeconds, double load) => Add(new ProgressDelta(serviceSeconds, load));

    /// <summary>Adds the delta returned by a downstream call that ran on its own (a sequential stage).</summary>
    /// <param name="child">The child's b counters.</param>
    public void AddSequential(ProgressDelta child) => Add(child);

    /// <summary>Adds the deltas of downstream calls that ran in parallel (see <see cref="ProgressDelta.JoinParallel"/>).</summary>
    /// <param name="children">The children's b counters.</param>
    public void AddParallel(ReadOnlySpan<ProgressDelta> children) => Add(ProgressDelta.JoinParallel(children));

    private void Add(ProgressDelta delta)
    {
        if (delta.Validate() is { } error)
        {
            throw new ArgumentException(error, nameof(delta));
        }

        AtomicAdd(ref _serviceTime, delta.ServiceTime);
        AtomicAdd(ref _load, delta.Load);
    }

    private static void AtomicAdd(ref double target, double value)
    {
        if (value == 0)
        {
            return;
        }

        var current = Volatile.Read(ref target);
        while (true)
        {
            var seen = Interlocked.CompareExchange(ref target, current + value, current);
            if (seen.Equals(current))
            {
                return;
            }

            current = seen;
        }
    }
}
