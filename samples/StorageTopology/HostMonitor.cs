// SPDX-License-Identifier: Apache-2.0

using System.Diagnostics;
using System.Globalization;

namespace Cicero.StorageTopology;

/// <summary>
/// Measures the host during live runs, whose servers and clients share this process: CPU used of all cores (by this
/// process, and by the whole machine where Linux's /proc/stat says, leaving out niced work that yields to this process),
/// the thread pool's queue, and how late a 100 ms wait ends. When the host itself is the bottleneck, differences between
/// configurations measure the machine, not the policies, and the verdict says so instead of naming a winner.
/// </summary>
internal sealed class HostMonitor : IDisposable
{
    /// <summary>CPU used, as a share of all cores, from which the host counts as saturated.</summary>
    public const double SaturatedCpu = 0.85;

    /// <summary>The median timer lateness, ms, from which the host counts as saturated.</summary>
    public const double LateTimerMs = 20;

    /// <summary>The median thread-pool queue, work items per core, from which the host counts as saturated.</summary>
    public const double QueuedPerCore = 4;

    private static readonly TimeSpan Period = TimeSpan.FromMilliseconds(100);
    private readonly CancellationTokenSource _stop = new();
    private readonly List<double> _lateMs = [];
    private readonly List<long> _queued = [];
    private readonly long _startedAt = TimeProvider.System.GetTimestamp();
    private readonly TimeSpan _cpuAtStart = Process.GetCurrentProcess().TotalProcessorTime;
    private readonly HostCpu? _hostAtStart = HostCpu.Read();
    private readonly Task _sampling;

    private HostMonitor() => _sampling = Task.Run(SampleAsync);

    /// <summary>Gets the measurements in a sentence, once <see cref="Finish"/> ran.</summary>
    public string? Summary { get; private set; }

    /// <summary>Gets why the host was the bottleneck, once <see cref="Finish"/> ran; <see langword="null"/> when it was not.</summary>
    public string? HostLimited { get; private set; }

    /// <summary>Starts measuring.</summary>
    public static HostMonitor Start() => new();

    /// <summary>Judges measurements: the reason the host was the bottleneck, or <see langword="null"/>.</summary>
    /// <param name="cpu">CPU busy as a share of all cores: the machine's where known, else this process's.</param>
    /// <param name="medianLateMs">The median timer lateness.</param>
    /// <param name="medianQueuedPerCore">The median thread-pool queue per core.</param>
    /// <returns>The reason, or <see langword="null"/>.</returns>
    public static string? Judge(double cpu, double medianLateMs, double medianQueuedPerCore)
    {
        var reasons = new List<string>();
        if (cpu >= SaturatedCpu)
        {
            reasons.Add(string.Create(CultureInfo.InvariantCulture, $"the CPUs were {100 * cpu:0}% busy (saturated from {100 * SaturatedCpu:0}%)"));
        }

        if (medianLateMs >= LateTimerMs)
        {
            reasons.Add(string.Create(CultureInfo.InvariantCulture, $"timers fired {medianLateMs:0} ms late at the median (from {LateTimerMs:0} ms)"));
        }

        if (medianQueuedPerCore >= QueuedPerCore)
        {
            reasons.Add(string.Create(CultureInfo.InvariantCulture, $"the thread pool queued {medianQueuedPerCore:0.#} work items per core at the median (from {QueuedPerCore:0})"));
        }

        return reasons.Count == 0 ? null
            : $"Live results measure this machine as much as the configurations: {string.Join("; ", reasons)}. Run on a less loaded host, at a lower speed-up, or in simulation.";
    }

    /// <summary>Stops measuring and judges.</summary>
    /// <returns>This monitor.</returns>
    public HostMonitor Finish()
    {
        if (Summary is not null)
        {
            return this;
        }

        _stop.Cancel();
        _sampling.GetAwaiter().GetResult();
        var wall = TimeProvider.System.GetElapsedTime(_startedAt);
        var cpu = (Process.GetCurrentProcess().TotalProcessorTime - _cpuAtStart).TotalSeconds / Math.Max(1e-9, wall.TotalSeconds * Environment.ProcessorCount);
        var host = _hostAtStart is { } start && HostCpu.Read() is { } end ? end.BusySince(start) : (double?)null;
        double late;
        double queued;
        lock (_lateMs)
        {
            late = Median(_lateMs);
            queued = Median([.. _queued.Select(static q => (double)q)]) / Environment.ProcessorCount;
        }

        Summary = string.Create(
            CultureInfo.InvariantCulture,
            $"CPU {100 * cpu:0}% of {Environment.ProcessorCount} cores by this process{(host is { } busy ? $", {100 * busy:0}% busy in all (lower-priority work aside)" : string.Empty)}, median timer lateness {late:0.0} ms, median thread-pool queue {queued:0.#} per core.");
        HostLimited = Judge(Math.Max(cpu, host ?? 0), late, queued);
        return this;
    }

    /// <summary>What a live run's console says of the host, once <see cref="Finish"/> ran: the measurements, and no winner when it was the bottleneck.</summary>
    public IReadOnlyList<string> Sentences() =>
        HostLimited is null ? ["Host during the live runs: " + Summary] : ["Host during the live runs: " + Summary, "No winner: the host itself was the bottleneck. " + HostLimited];

    public void Dispose()
    {
        Finish();
        _stop.Dispose();
    }

    private static double Median(List<double> values)
    {
        if (values.Count == 0)
        {
            return 0;
        }

        values.Sort();
        return values[values.Count / 2];
    }

    private async Task SampleAsync()
    {
        try
        {
            while (true)
            {
                // Each wait's own lateness: a periodic timer's ticks keep to the period even when every one is late.
                var asleep = TimeProvider.System.GetTimestamp();
                await Task.Delay(Period, TimeProvider.System, _stop.Token).ConfigureAwait(false);
                var late = Math.Max(0, (TimeProvider.System.GetElapsedTime(asleep) - Period).TotalMilliseconds);
                lock (_lateMs)
                {
                    _lateMs.Add(late);
                    _queued.Add(ThreadPool.PendingWorkItemCount);
                }
            }
        }
        catch (OperationCanceledException)
        {
            // Finished.
        }
    }
}
