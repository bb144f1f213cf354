// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Resources;

/// <summary>Serves sub-tasks in arrival order, whatever their workflow.</summary>
/// <remarks>Single-threaded by contract, as every <see cref="ISubtaskScheduler"/>.</remarks>
public sealed class FifoScheduler : ISubtaskScheduler
{
    private readonly SubtaskBacklog _queue = new();

    /// <summary>Gets a factory that creates FIFO schedulers under the name <see cref="SubtaskSchedulers.Fifo"/>.</summary>
    public static SubtaskSchedulerFactory Factory { get; } = new FifoSchedulerFactory();

    /// <inheritdoc />
    int ISubtaskScheduler.Count => _queue.Count;

    /// <inheritdoc />
    void ISubtaskScheduler.Enqueue(in SubtaskTicket ticket) => _queue.Enqueue(ticket);

    /// <inheritdoc />
    bool ISubtaskScheduler.TryDequeue(long now, out SubtaskTicket ticket) => _queue.TryDequeue(out ticket);

    /// <inheritdoc />
    bool ISubtaskScheduler.TryRemove(in SubtaskTicket ticket) => _queue.TryRemove(ticket.Id);

    /// <inheritdoc />
    void ISubtaskScheduler.OnCompleted(in SubtaskCompletion completion)
    {
    }

    private sealed class FifoSchedulerFactory : SubtaskSchedulerFactory
    {
        public override string Name => SubtaskSchedulers.Fifo;

        public override ISubtaskScheduler Create(SubtaskSchedulerContext context) => new FifoScheduler();
    }
}
