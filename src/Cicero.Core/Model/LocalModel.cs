// SPDX-License-Identifier: Apache-2.0

using Cicero.Measurement;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Model;

/// <summary>
/// The per-process, per-workflow model of request execution (dissertation section 5.2.2): one
/// <see cref="WorkflowModel"/> per tracked workflow plus the loads measured by the registered resources.
/// </summary>
/// <remarks>
/// Recording is thread-safe. <see cref="CloseInterval"/> is called once per control interval by one thread (the rate
/// adaptation step), and turns the interval's counts into rates and averages.
/// </remarks>
public sealed class LocalModel
{
    private readonly WorkflowModel?[] _workflows;
    private readonly Lock _lock = new();
    private readonly TimeProvider _timeProvider;
    private ResourceSemaphore[] _resources = [];
    private long _intervalStart;

    /// <summary>Creates a model.</summary>
    /// <param name="registry">The bounded set of workflows to model.</param>
    /// <param name="timeProvider">The process clock.</param>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    public LocalModel(WorkflowRegistry registry, TimeProvider timeProvider, LocalModelOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(registry);
        ArgumentNullException.ThrowIfNull(timeProvider);
        Options = options ?? new LocalModelOptions();
        Options.Validate();
        Registry = registry;
        _timeProvider = timeProvider;
        _workflows = new WorkflowModel?[registry.SlotCapacity];
        _intervalStart = timeProvider.GetTimestamp();
    }

    /// <summary>Gets the workflow registry.</summary>
    public WorkflowRegistry Registry { get; }

    /// <summary>Gets the options.</summary>
    internal LocalModelOptions Options { get; }

    /// <summary>Gets the resources whose loads feed the model.</summary>
    internal IReadOnlyList<ResourceSemaphore> Resources => Volatile.Read(ref _resources);

    /// <summary>Gets the model of <paramref name="slot"/>'s workflow, creating it on first use.</summary>
    /// <param name="slot">A slot of <see cref="Registry"/>.</param>
    /// <returns>The workflow's model.</returns>
    public WorkflowModel Get(WorkflowSlot slot)
    {
        ArgumentNullException.ThrowIfNull(slot);
        if (!ReferenceEquals(slot.Registry, Registry))
        {
            throw new ArgumentException("The slot belongs to another workflow registry.", nameof(slot));
        }

        var model = Volatile.Read(ref _workflows[slot.Index]);
        if (model is not null)
        {
            return model;
        }

        var created = new WorkflowModel(slot, Options);
        return Interlocked.CompareExchange(ref _workflows[slot.Index], created, null) ?? created;
    }

    /// <summary>Gets the model of <paramref name="workflow"/>, tracking it (or folding it into the overflow workflow).</summary>
    /// <param name="workflow">The workflow id.</param>
    /// <returns>The workflow's model.</returns>
    public WorkflowModel Get(WorkflowId workflow) => Get(Registry.Resolve(workflow));

    /// <summary>Gets the model of a workflow if it has one yet.</summary>
    /// <param name="slotIndex">The slot index.</param>
    /// <returns>The model, or <see langword="null"/>.</returns>
    public WorkflowModel? Find(int slotIndex) =>
        (uint)slotIndex < (uint)_workflows.Length ? Volatile.Read(ref _workflows[slotIndex]) : null;

    /// <summary>Adds a resource whose per-workflow load the model reports.</summary>
    /// <param name="resource">The resource; it must use this model's registry.</param>
    internal void AddResource(ResourceSemaphore resource)
    {
        ArgumentNullException.ThrowIfNull(resource);
        if (!ReferenceEquals(resource.Registry, Registry))
        {
            throw new ArgumentException($"Resource '{resource.Name}' uses another workflow registry.", nameof(resource));
        }

        lock (_lock)
        {
            foreach (var existing in _resources)
            {
                if (ReferenceEquals(existing, resource))
                {
                    return;
                }

                if (existing.Name == resource.Name)
                {
                    throw new ArgumentException($"A resource named '{resource.Name}' is already registered.", nameof(resource));
                }
            }

            Volatile.Write(ref _resources, [.. _resources, resource]);
        }
    }

    /// <summary>
    /// Closes the measurement interval that began at the previous call: rates, amplification, spreads and resource
    /// loads are updated from what was recorded since.
    /// </summary>
    /// <returns>The interval's length in seconds, or 0 if no time has passed (nothing is updated then).</returns>
    internal double CloseInterval()
    {
        var now = _timeProvider.GetTimestamp();
        var seconds = (double)(now - _intervalStart) / _timeProvider.TimestampFrequency;
        if (seconds <= 0)
        {
            return 0;
        }

        _intervalStart = now;
        var count = Registry.Count;
        for (var i = 0; i < count; i++)
        {
            Find(i)?.CloseInterval(seconds);
        }

        foreach (var resource in Volatile.Read(ref _resources))
        {
            resource.CloseInterval(now, seconds);
        }

        return seconds;
    }
}
