// SPDX-License-Identifier: Apache-2.0

using BenchmarkDotNet.Attributes;
using Cicero.Context;
using Cicero.Policies.Registration;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Benchmarks;

/// <summary>
/// One enqueue plus one dequeue (and the completion report) per operation, with <see cref="Waiters"/> sub-tasks
/// already waiting, for every built-in scheduler; FIFO with the same number of waiters is the same-run baseline.
/// </summary>
[MemoryDiagnoser]
public class SchedulerBenchmarks
{
    private const int Workflows = 8;
    private SubtaskTicket[] _tickets = [];
    private ISubtaskScheduler _scheduler = null!;
    private ISubtaskScheduler _fifo = null!;
    private int _next;

    [Params(10, 10_000)]
    public int Waiters { get; set; }

    [Params("drr", "edf", "lstf", "srtf", "lasf", "sjf", "priority", "cake-shares")]
    public string Policy { get; set; } = "edf";

    [GlobalSetup]
    public void Setup()
    {
        var registry = new WorkflowRegistry();
        var random = new Random(42);
        _tickets = new SubtaskTicket[4096];
        for (var i = 0; i < _tickets.Length; i++)
        {
            var workflow = new WorkflowId($"tenant-{i % Workflows}");
            var start = random.Next(0, 1_000_000);
            var context = RequestContext.Create(
                workflow,
                start,
                TimeSpan.FromMilliseconds(random.Next(10, 1000)),
                new ProgressDelta(random.NextDouble() * 0.05, random.NextDouble()),
                default,
                new ProgressDelta(0.01 + (random.NextDouble() * 0.1), 0.5 + random.NextDouble()));
            _tickets[i] = new SubtaskTicket
            {
                Id = i + 1,
                Workflow = registry.Resolve(workflow),
                Context = context,
                Cost = 1 + random.Next(0, 4),
                DeadlineTimestamp = context.GetDeadlineTimestamp(TimeSpan.TicksPerSecond),
            };
        }

        _scheduler = Create(Policy, registry);
        _fifo = Create("fifo", registry);
    }

    [Benchmark(Baseline = true, Description = "FIFO enqueue + dequeue")]
    public long Fifo() => EnqueueDequeue(_fifo);

    [Benchmark(Description = "scheduler enqueue + dequeue")]
    public long Scheduler() => EnqueueDequeue(_scheduler);

    private long EnqueueDequeue(ISubtaskScheduler scheduler)
    {
        scheduler.Enqueue(NextTicket());
        scheduler.TryDequeue(0, out var ticket);
        scheduler.OnCompleted(new SubtaskCompletion(ticket.Workflow, ticket.Context, ticket.Cost, 0, TimeSpan.FromMilliseconds(1)));
        return ticket.Id;
    }

    private ISubtaskScheduler Create(string name, WorkflowRegistry registry)
    {
        var scheduler = PolicyCatalog.Default.GetScheduler(name)
            .Create(new SubtaskSchedulerContext("disk", int.MaxValue / 2, TimeSpan.TicksPerSecond, registry));
        scheduler.OnCapacityChanged(int.MaxValue / 2);
        for (var i = 0; i < Waiters; i++)
        {
            scheduler.Enqueue(NextTicket());
        }

        return scheduler;
    }

    private SubtaskTicket NextTicket()
    {
        var ticket = _tickets[_next];
        _next = (_next + 1) % _tickets.Length;
        return ticket;
    }
}
