// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;
using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>
/// Appends what a live process's instances are doing to a CSV file every second (<c>unix_ms,source,metric,value</c>),
/// for runs spread over processes, whose state the driver cannot read (<see cref="LiveRunnerOptions.MonitorPath"/>):
/// per hosted instance the calls it has served and, per workflow, the σ it announces and the downstream rate it admits
/// under; per process the thread pool's threads, open handles, resident memory, managed heap, the count of full (gen2)
/// collections, the bytes that survived the last one and the memory the collector has committed.
/// </summary>
internal sealed class LiveMonitor : IDisposable
{
    private static readonly TimeSpan Every = TimeSpan.FromSeconds(1);
    private readonly StreamWriter _writer;
    private readonly Lock _lock = new();

    private LiveMonitor(string path)
    {
        _writer = new StreamWriter(new FileStream(path, FileMode.Append, FileAccess.Write, FileShare.ReadWrite)) { AutoFlush = true };
    }

    /// <summary>Opens the file, or returns null without one.</summary>
    public static LiveMonitor? Open(string? path) => path is null ? null : new LiveMonitor(path);

    /// <summary>Writes one line now.</summary>
    public void Write(string source, string metric, double value)
    {
        var line = string.Create(CultureInfo.InvariantCulture, $"{TimeProvider.System.GetUtcNow().ToUnixTimeMilliseconds()},{source},{metric},{value:R}");
        lock (_lock)
        {
            _writer.WriteLine(line);
        }
    }

    /// <summary>Samples <paramref name="instances"/> (read afresh each second: a restarted instance replaces its slot) until cancelled.</summary>
    public async Task RunAsync(IReadOnlyList<LiveInstance?[]> instances, IReadOnlyList<WorkflowDef> workflows, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(Every, TimeProvider.System);
        using var process = Process.GetCurrentProcess();
        try
        {
            do
            {
                foreach (var instance in instances.SelectMany(static tier => tier))
                {
                    if (instance is null || instance.Runtime is null)
                    {
                        continue;
                    }

                    Write(instance.Name, "served", instance.Served);
                    foreach (var workflow in workflows)
                    {
                        Write(instance.Name, "sigma:" + workflow.Name, instance.Runtime.RateAdaptation.GetAnnouncedRate(workflow.Id));
                        Write(instance.Name, "downstream:" + workflow.Name, instance.Runtime.RateAdaptation.GetDownstreamRate(workflow.Id));
                    }
                }

                process.Refresh();
                var source = "pid-" + Environment.ProcessId.ToString(CultureInfo.InvariantCulture);
                Write(source, "threadpool-threads", ThreadPool.ThreadCount);
                Write(source, "threads", process.Threads.Count);
                Write(source, "handles", process.HandleCount);
                Write(source, "rss-bytes", process.WorkingSet64);
                Write(source, "heap-bytes", GC.GetTotalMemory(forceFullCollection: false));
                WriteCollector(source);
            }
            while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false));
        }
        catch (OperationCanceledException)
        {
            // The process is stopping.
        }
    }

    // Resident memory alone cannot tell a leak from a collector still sizing its budgets: what survived the last full
    // (gen2) collection can, so it is written with the count of those collections and the memory the collector holds.
    private void WriteCollector(string source)
    {
        var blocking = GC.GetGCMemoryInfo(GCKind.FullBlocking);
        var background = GC.GetGCMemoryInfo(GCKind.Background);
        var lastFull = blocking.Index >= background.Index ? blocking : background;
        Write(source, "gen2-collections", GC.CollectionCount(2));
        if (lastFull.Index > 0)
        {
            Write(source, "live-after-gen2-bytes", lastFull.PromotedBytes);
        }

        Write(source, "gc-committed-bytes", GC.GetGCMemoryInfo(GCKind.Any).TotalCommittedBytes);
    }

    /// <inheritdoc/>
    public void Dispose() => _writer.Dispose();
}
