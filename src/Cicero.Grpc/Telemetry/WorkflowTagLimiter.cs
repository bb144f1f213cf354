// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using System.Diagnostics;
using Cicero.Diagnostics;
using Cicero.Workflows;

namespace Cicero.Grpc.Telemetry;

/// <summary>
/// Maps workflow ids to values of the <see cref="CiceroTelemetry.WorkflowTag"/> tag, so that at most
/// <see cref="MaxValues"/> distinct workflow names plus <see cref="CiceroGrpcTelemetry.OverflowWorkflowTagValue"/> ever
/// reach a metric or span, however many ids the wire brings.
/// </summary>
/// <remarks>
/// <para>
/// Policy: a name, once given, is kept for the limiter's lifetime, because a metrics backend keeps every series it has
/// seen and renaming would grow them past the bound. The first <see cref="FirstSeenValues"/> ids (half the bound by
/// default) are named on sight, so a service with a handful of tenants never tags a tenant's first requests with the
/// overflow value nor exports an overflow series. The remaining names go to ids that prove to be heavy, not merely
/// the first seen: unnamed ids are counted in a space-saving sketch (Metwally et al., 2005) of
/// <c>M = max(1024, 4 × MaxValues)</c> counters (1024 is the workflow registry's default bound, so every workflow a
/// default registry tracks fits), and an id is named once its guaranteed count (its count minus the overcount it
/// inherited on entering the sketch) reaches <see cref="PromotionThreshold"/>. Until then it maps to the overflow
/// value. A flood of one-off ids therefore never takes a name, while any id with more than a <c>1 / M</c> share of
/// the unnamed traffic stays in the sketch and earns one. The price: when more than <c>M</c> ids share the traffic
/// evenly, none is heavy and none is named. A threshold of 1 gives plain first-seen-wins.
/// </para>
/// <para>
/// Thread-safe. Named ids, and every id once all names are given, are looked up without a lock and without
/// allocating. Counting an unnamed id takes a lock and also allocates nothing.
/// </para>
/// </remarks>
public sealed class WorkflowTagLimiter
{
    /// <summary>The default bound on distinct workflow names.</summary>
    public const int DefaultMaxValues = 100;

    /// <summary>The default number of guaranteed occurrences before an id is given a name, once the first-seen names are gone.</summary>
    public const int DefaultPromotionThreshold = 8;

    private const string Overflow = CiceroGrpcTelemetry.OverflowWorkflowTagValue;

    // Far past what any metrics backend takes per tag; it keeps the sketch's array reasonable.
    private const int MaxSupportedValues = 1_000_000;

    private readonly ConcurrentDictionary<string, string> _named = new(StringComparer.Ordinal);
    private readonly Lock _lock = new();

    // The sketch: a binary min-heap on Count, with each id's heap position, so the least-counted id is found at once.
    private readonly Dictionary<string, int> _positions;
    private readonly Candidate[] _heap;
    private int _heapCount;
    private int _namedCount;

    /// <summary>Creates a limiter.</summary>
    /// <param name="maxValues">The bound on distinct workflow names, 0 to 1,000,000; 0 maps every id to the overflow value.</param>
    /// <param name="promotionThreshold">The guaranteed occurrences an id needs before it is named; at least 1.</param>
    /// <param name="firstSeenValues">
    /// How many of the names go to ids on first sight, 0 to <paramref name="maxValues"/>; half of
    /// <paramref name="maxValues"/> when <see langword="null"/>. 0 gives every name through the heavy-hitter sketch.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException">An argument is out of range.</exception>
    public WorkflowTagLimiter(int maxValues = DefaultMaxValues, int promotionThreshold = DefaultPromotionThreshold, int? firstSeenValues = null)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(maxValues);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(maxValues, MaxSupportedValues);
        ArgumentOutOfRangeException.ThrowIfLessThan(promotionThreshold, 1);
        var firstSeen = firstSeenValues ?? maxValues / 2;
        ArgumentOutOfRangeException.ThrowIfNegative(firstSeen, nameof(firstSeenValues));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(firstSeen, maxValues, nameof(firstSeenValues));
        MaxValues = maxValues;
        PromotionThreshold = promotionThreshold;
        FirstSeenValues = firstSeen;
        var capacity = maxValues == 0 ? 0 : Math.Max(WorkflowRegistry.DefaultMaxWorkflows, 4 * maxValues);
        _heap = new Candidate[capacity];
        _positions = new Dictionary<string, int>(capacity, StringComparer.Ordinal);
    }

    /// <summary>Gets the bound on distinct workflow names, not counting the overflow value.</summary>
    public int MaxValues { get; }

    /// <summary>Gets how many guaranteed occurrences an id needs before it is named.</summary>
    public int PromotionThreshold { get; }

    /// <summary>Gets how many names go to ids on first sight, before the heavy-hitter rule applies.</summary>
    public int FirstSeenValues { get; }

    /// <summary>Gets how many workflow names have been given; never more than <see cref="MaxValues"/>.</summary>
    public int NamedCount => Volatile.Read(ref _namedCount);

    /// <summary>Gets the tag value for a workflow, counting the occurrence.</summary>
    /// <param name="workflow">The workflow; the default id maps to the overflow value.</param>
    /// <returns>The workflow's id, or <see cref="CiceroGrpcTelemetry.OverflowWorkflowTagValue"/>.</returns>
    public string GetTag(WorkflowId workflow) => workflow.IsEmpty ? Overflow : GetTag(workflow.Value);

    /// <summary>Gets the tag value for a workflow id, counting the occurrence.</summary>
    /// <param name="workflow">The workflow id; text that is not a valid <see cref="WorkflowId"/> maps to the overflow value.</param>
    /// <returns>The id, or <see cref="CiceroGrpcTelemetry.OverflowWorkflowTagValue"/>.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="workflow"/> is <see langword="null"/>.</exception>
    public string GetTag(string workflow)
    {
        ArgumentNullException.ThrowIfNull(workflow);
        if (_named.TryGetValue(workflow, out var tag))
        {
            return tag;
        }

        // Invalid text is refused so the sketch holds only short ids, keeping memory bounded too.
        if (Volatile.Read(ref _namedCount) >= MaxValues
            || string.Equals(workflow, Overflow, StringComparison.Ordinal)
            || !WorkflowId.TryCreate(workflow, out _, out _))
        {
            return Overflow;
        }

        return Count(workflow);
    }

    private string Count(string workflow)
    {
        lock (_lock)
        {
            // Another thread may have named it, or used the last name, since the lock-free check.
            if (_named.TryGetValue(workflow, out var tag))
            {
                return tag;
            }

            if (_namedCount >= MaxValues)
            {
                return Overflow;
            }

            if (_namedCount < FirstSeenValues)
            {
                // While first-seen names last the sketch holds no one, so there is nothing to take the id out of.
                Debug.Assert(_heapCount == 0, "The sketch is used only once the first-seen names are gone.");
                Name(workflow);
                return workflow;
            }

            int index;
            var appended = false;
            if (_positions.TryGetValue(workflow, out index))
            {
                _heap[index].Count++;
            }
            else if (_heapCount < _heap.Length)
            {
                index = _heapCount++;
                _heap[index] = new Candidate(workflow, 1, 0);
                _positions.Add(workflow, index);
                appended = true;
            }
            else
            {
                // Space-saving: the newcomer replaces the least-counted id and inherits its count as possible overcount.
                index = 0;
                var min = _heap[0].Count;
                _positions.Remove(_heap[0].Id);
                _heap[0] = new Candidate(workflow, min + 1, min);
                _positions.Add(workflow, 0);
            }

            if (_heap[index].Count - _heap[index].Error >= PromotionThreshold)
            {
                Promote(index);
                return workflow;
            }

            if (appended)
            {
                SiftUp(index);
            }
            else
            {
                SiftDown(index);
            }

            return Overflow;
        }
    }

    private void Promote(int index)
    {
        var id = _heap[index].Id;
        RemoveAt(index);
        Name(id);
    }

    private void Name(string id)
    {
        _named[id] = id;
        Volatile.Write(ref _namedCount, _namedCount + 1);
        Debug.Assert(_namedCount <= MaxValues, "Names are given only below the bound.");
        if (_namedCount == MaxValues)
        {
            // Every name is given: the sketch is never read again.
            Array.Clear(_heap);
            _positions.Clear();
            _heapCount = 0;
        }
    }

    private void RemoveAt(int index)
    {
        _positions.Remove(_heap[index].Id);
        var last = --_heapCount;
        if (index != last)
        {
            _heap[index] = _heap[last];
            _positions[_heap[index].Id] = index;
            _heap[last] = default;
            SiftDown(index);
            SiftUp(index);
        }
        else
        {
            _heap[last] = default;
        }
    }

    private void SiftUp(int index)
    {
        while (index > 0)
        {
            var parent = (index - 1) / 2;
            if (_heap[parent].Count <= _heap[index].Count)
            {
                return;
            }

            Swap(index, parent);
            index = parent;
        }
    }

    private void SiftDown(int index)
    {
        while (true)
        {
            var smallest = index;
            var left = (2 * index) + 1;
            var right = left + 1;
            if (left < _heapCount && _heap[left].Count < _heap[smallest].Count)
            {
                smallest = left;
            }

            if (right < _heapCount && _heap[right].Count < _heap[smallest].Count)
            {
                smallest = right;
            }

            if (smallest == index)
            {
                return;
            }

            Swap(index, smallest);
            index = smallest;
        }
    }

    private void Swap(int a, int b)
    {
        (_heap[a], _heap[b]) = (_heap[b], _heap[a]);
        _positions[_heap[a].Id] = a;
        _positions[_heap[b].Id] = b;
    }

    private struct Candidate(string id, long count, long error)
    {
        public readonly string Id = id;
        public long Count = count;
        public readonly long Error = error;
    }
}
