// SPDX-License-Identifier: Apache-2.0

using BenchmarkDotNet.Attributes;
using Cicero.Time;

namespace Cicero.Benchmarks;

/// <summary>
/// The discrete-event kernel: schedule <see cref="CallbackCount"/> callbacks (a static no-op, state
/// <see langword="null"/>, delays of i mod 1000 ticks) on a <see cref="VirtualTimeProvider"/>, then run them all with
/// <see cref="VirtualTimeProvider.RunUntilIdle"/>. Results are per callback (schedule + run).
/// </summary>
/// <remarks>
/// The baseline does the same with a plain <see cref="PriorityQueue{TElement, TPriority}"/> keyed by the due time: no
/// lock, no sequence number (so no FIFO order among equal due times) and no clock to move. The provider and the queue are
/// reused across invocations; both keep their grown backing arrays, so steady state allocates nothing.
/// </remarks>
[MemoryDiagnoser]
public class VirtualClockBenchmarks
{
    /// <summary>Callbacks scheduled and run per invocation.</summary>
    public const int CallbackCount = 100_000;

    private static readonly Action<object?> NoOp = static _ => { };

    private readonly PriorityQueue<Action<object?>, long> _queue = new();
    private readonly VirtualTimeProvider _clock = new();
    private long _queueNow;

    [Benchmark(Baseline = true, OperationsPerInvoke = CallbackCount, Description = "PriorityQueue<Action, long> enqueue + drain")]
    public long PriorityQueueScheduleAndDrain()
    {
        var now = _queueNow;
        for (var i = 0; i < CallbackCount; i++)
        {
            _queue.Enqueue(NoOp, now + (i % 1000));
        }

        while (_queue.TryDequeue(out var callback, out var due))
        {
            now = due;
            callback(null);
        }

        _queueNow = now;
        return now;
    }

    [Benchmark(OperationsPerInvoke = CallbackCount, Description = "VirtualTimeProvider.Schedule + RunUntilIdle")]
    public int VirtualClockScheduleAndRun()
    {
        for (var i = 0; i < CallbackCount; i++)
        {
            _clock.Schedule(TimeSpan.FromTicks(i % 1000), NoOp, null);
        }

        return _clock.RunUntilIdle(10_000_000);
    }

    [Benchmark(OperationsPerInvoke = CallbackCount, Description = "VirtualTimeProvider.ScheduleAt + RunUntilIdle")]
    public int VirtualClockScheduleAtAndRun()
    {
        var now = _clock.GetTimestamp();
        for (var i = 0; i < CallbackCount; i++)
        {
            _clock.ScheduleAt(now + (i % 1000), NoOp, null);
        }

        return _clock.RunUntilIdle(10_000_000);
    }
}
