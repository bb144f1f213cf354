// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Strict priority by workflow: a waiting sub-task of a higher-priority workflow always runs before any of a lower
/// one; equal priorities run in arrival order. Low priorities can starve; use DRR or Cake shares to avoid that.
/// </summary>
public sealed class StrictPriorityScheduler : PriorityOrderedScheduler
{
    private readonly StrictPriorityOptions _options;
    private readonly int[] _levels;
    private readonly bool[] _known;

    /// <summary>Creates the scheduler.</summary>
    /// <param name="options">Priorities by workflow.</param>
    /// <param name="registry">The resource's workflow registry; priorities are cached per slot.</param>
    public StrictPriorityScheduler(StrictPriorityOptions options, WorkflowRegistry registry)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(registry);
        _options = options;
        _levels = new int[registry.SlotCapacity];
        _known = new bool[registry.SlotCapacity];
    }

    /// <summary>Creates a factory under the name <see cref="SubtaskSchedulerNames.StrictPriority"/>.</summary>
    /// <param name="options">Priorities by workflow; none means every workflow has the default priority.</param>
    /// <returns>The factory.</returns>
    public static SubtaskSchedulerFactory CreateFactory(StrictPriorityOptions? options = null)
    {
        options ??= new StrictPriorityOptions();
        return new DelegateSchedulerFactory(SubtaskSchedulerNames.StrictPriority, context => new StrictPriorityScheduler(options, context.Registry));
    }

    /// <inheritdoc />
    protected override double GetPriority(in SubtaskTicket ticket)
    {
        var index = ticket.Workflow.Index;
        if (!_known[index])
        {
            _levels[index] = _options.Priorities.TryGetValue(ticket.Workflow.Id.Value, out var level) ? level : _options.DefaultPriority;
            _known[index] = true;
        }

        return -(double)_levels[index];
    }
}
