// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Runtime;

/// <summary>
/// Assembles a <see cref="CiceroRuntime"/>: the one place where a process's workflow registry, local model, admission
/// controller, resources and rate adaptation are wired together. <c>AddCicero</c> (hosting), the live topology runner
/// (through hosting) and the simulator's instances all build their runtimes here, so a process is the same object graph
/// live and simulated.
/// </summary>
/// <remarks>
/// <para>
/// Configure, then call <see cref="Build"/>; each call builds a new runtime from the factories (as Polly's
/// <c>ResiliencePipelineBuilder</c> does), so one builder may serve many processes of a simulation. Policies and
/// schedulers are given as factories because they need the runtime's own <see cref="WorkflowRegistry"/>, which exists
/// only inside <see cref="Build"/>.
/// </para>
/// <para>
/// <see cref="Build"/> creates, in this order: the registry, the local model, the admission controller (with the drop
/// policy), the <see cref="Workflows"/> registered up front, the resources in the order they were added (each with its
/// scheduler), the rate-limit policy, the rate adaptation controller and the context codec. A rate-limit policy factory
/// may therefore use what a scheduler factory of the same build created (Cake's SLO controller drives its disk's share
/// scheduler).
/// </para>
/// </remarks>
public sealed class CiceroRuntimeBuilder
{
    private readonly List<(ResourceSemaphoreOptions Options, Func<SubtaskSchedulerContext, ISubtaskScheduler>? Scheduler)> _resources = [];

    /// <summary>Gets or sets the options; the runtime keeps this instance.</summary>
    public CiceroOptions Options { get; set; } = new();

    /// <summary>Gets or sets the process clock.</summary>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;

    /// <summary>
    /// Gets or sets what builds the local rate-limit policy from the runtime's registry and control interval
    /// (e.g. <c>RateLimitPolicyFactory.Create</c>); pass-through when <see langword="null"/>.
    /// </summary>
    public Func<RateLimitPolicyContext, IRateLimitPolicy?>? RateLimitPolicy { get; set; }

    /// <summary>
    /// Gets or sets what builds the drop policy from the runtime's registry (e.g. <c>DropPolicyFactory.Create</c>);
    /// deadline feasibility when <see langword="null"/>.
    /// </summary>
    public Func<WorkflowRegistry, IDropPolicy?>? DropPolicy { get; set; }

    /// <summary>Gets or sets the transport to downstream instances, for the rate adaptation loop; none when <see langword="null"/>.</summary>
    public IDownstreamRateSource? RateSource { get; set; }

    /// <summary>
    /// Gets the workflows registered before any resource or policy is created, in this order (a policy that shares
    /// capacity among all workflows then sees every one from its first step, not only those that arrived by then).
    /// </summary>
    public IList<WorkflowId> Workflows { get; } = [];

    /// <summary>Adds a resource the runtime creates at <see cref="Build"/>, after those added before it.</summary>
    /// <param name="options">The resource's options; its name must be unique in the runtime.</param>
    /// <param name="scheduler">Builds its scheduler (e.g. <c>SubtaskSchedulerFactory.Create</c>); FIFO when <see langword="null"/>.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="ArgumentException">A resource of that name was already added.</exception>
    public CiceroRuntimeBuilder AddResource(ResourceSemaphoreOptions options, Func<SubtaskSchedulerContext, ISubtaskScheduler>? scheduler = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(options.Name, nameof(options));
        foreach (var (existing, _) in _resources)
        {
            if (string.Equals(existing.Name, options.Name, StringComparison.Ordinal))
            {
                throw new ArgumentException($"A resource named '{options.Name}' was already added to this runtime.", nameof(options));
            }
        }

        _resources.Add((options, scheduler));
        return this;
    }

    /// <summary>Builds a new runtime from the current configuration.</summary>
    /// <returns>The runtime.</returns>
    /// <exception cref="ArgumentException">The options are invalid (as the parts' own validation reports).</exception>
    public CiceroRuntime Build()
    {
        ArgumentNullException.ThrowIfNull(Options);
        ArgumentNullException.ThrowIfNull(TimeProvider);
        return new CiceroRuntime(this);
    }

    /// <summary>The resources to create, in the order added.</summary>
    internal IReadOnlyList<(ResourceSemaphoreOptions Options, Func<SubtaskSchedulerContext, ISubtaskScheduler>? Scheduler)> Resources => _resources;
}
