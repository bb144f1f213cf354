// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Measurement;

namespace Cicero.Model;

/// <summary>
/// The completion time L of one workflow's requests per operation (the gRPC method a hop serves them in), for the
/// deadline-feasibility estimate: a tenant's 4 MiB uploads must not make its 1 KB reads look infeasible. Bounded: past
/// <see cref="MaxOperations"/> operations a workflow's new ones are judged on its workflow-wide L.
/// </summary>
internal sealed class OperationCompletionTimes(double weight)
{
    /// <summary>The most operations tracked per workflow (a service has a handful of methods; a bound, not a target).</summary>
    public const int MaxOperations = 64;

    private readonly ConcurrentDictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly Lock _addLock = new();
    private int _count;

    /// <summary>Gets a value indicating whether an operation never seen would still be tracked.</summary>
    public bool HasRoom => Volatile.Read(ref _count) < MaxOperations;

    /// <summary>Reads an operation's L without locking (the admission hot path).</summary>
    public bool TryGet(string operation, out double seconds)
    {
        if (_entries.TryGetValue(operation, out var entry))
        {
            seconds = Volatile.Read(ref entry.Value);
            return true;
        }

        seconds = 0;
        return false;
    }

    /// <summary>Folds one completion of <paramref name="operation"/> into its L.</summary>
    public void Record(string operation, double seconds)
    {
        if (!_entries.TryGetValue(operation, out var entry))
        {
            lock (_addLock)
            {
                if (!_entries.TryGetValue(operation, out entry))
                {
                    if (_count >= MaxOperations)
                    {
                        return;
                    }

                    entry = new Entry(weight);
                    _entries[operation] = entry;
                    Volatile.Write(ref _count, _count + 1);
                }
            }
        }

        lock (entry.Gate)
        {
            entry.Average.Update(seconds);
            Volatile.Write(ref entry.Value, entry.Average.Value);
        }
    }

    private sealed class Entry(double weight)
    {
        public readonly Lock Gate = new();
        public Ewma Average = new(weight);
        public double Value;
    }
}
