// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>A scheduler factory from a name and a creation function; for built-ins and simple custom schedulers.</summary>
/// <param name="name">The configuration name.</param>
/// <param name="create">Creates a scheduler for one resource.</param>
public sealed class DelegateSchedulerFactory(string name, Func<SubtaskSchedulerContext, ISubtaskScheduler> create) : SubtaskSchedulerFactory
{
    private readonly Func<SubtaskSchedulerContext, ISubtaskScheduler> _create = create ?? throw new ArgumentNullException(nameof(create));

    /// <inheritdoc />
    public override string Name { get; } = !string.IsNullOrWhiteSpace(name) ? name : throw new ArgumentException("A scheduler needs a name.", nameof(name));

    /// <inheritdoc />
    public override ISubtaskScheduler Create(SubtaskSchedulerContext context)
    {
        ArgumentNullException.ThrowIfNull(context);
        return _create(context);
    }
}
