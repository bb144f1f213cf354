// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Cicero.Admission;
using Cicero.Context;
using Cicero.Model;
using Cicero.RateAdaptation;
using Cicero.Resources;
using Cicero.Workflows;

namespace Cicero.Runtime;

/// <summary>
/// Cicero in one process: the workflow registry, local model, admission controller, resources and rate adaptation,
/// wired together. The policy developers' API of dissertation Table 5.1 is spread over its parts (docs/table-5-1.md
/// maps each name): <see cref="Admission"/> for rate limiters, <see cref="RateAdaptation"/> for remote rates,
/// <see cref="Model"/> for arrival rates, <see cref="GetResource"/> for utilization and sub-task costs,
/// <see cref="CiceroContext.Current"/> for request metadata, and <see cref="RequestDroppedException"/> to drop.
/// </summary>
/// <remarks>
/// Thread-safe. Time comes only from the injected <see cref="TimeProvider"/>, so a <see cref="Time.VirtualTimeProvider"/>
/// runs a whole process deterministically.
/// </remarks>
public sealed class CiceroRuntime : IDisposable
{
    private readonly ConcurrentDictionary<string, ResourceSemaphore> _resources = new(StringComparer.Ordinal);
    private readonly Lock _resourceLock = new();

    /// <summary>Creates the runtime of one process.</summary>
    /// <param name="options">Options; defaults when <see langword="null"/>.</param>
    /// <param name="timeProvider">The clock; the system clock when <see langword="null"/>.</param>
    /// <param name="rateLimitPolicy">The local rate-limit policy; pass-through when <see langword="null"/>.</param>
    /// <param name="dropPolicy">The drop policy; deadline feasibility when <see langword="null"/>.</param>
    /// <param name="rateSource">The transport to downstream instances, for the rate adaptation loop.</param>
    /// <remarks>A shorthand for <see cref="CiceroRuntimeBuilder"/> with ready-made policies and no resources.</remarks>
    public CiceroRuntime(
        CiceroOptions? options = null,
        TimeProvider? timeProvider = null,
        IRateLimitPolicy? rateLimitPolicy = null,
        IDropPolicy? dropPolicy = null,
        IDownstreamRateSource? rateSource = null)
        : this(new CiceroRuntimeBuilder
        {
            Options = options ?? new CiceroOptions(),
            TimeProvider = timeProvider ?? TimeProvider.System,
            RateLimitPolicy = rateLimitPolicy is null ? null : _ => rateLimitPolicy,
            DropPolicy = dropPolicy is null ? null : _ => dropPolicy,
            RateSource = rateSource,
        })
    {
    }

    /// <summary>Assembles the runtime in the order <see cref="CiceroRuntimeBuilder"/> documents; only it calls this.</summary>
    internal CiceroRuntime(CiceroRuntimeBuilder builder)
    {
        Options = builder.Options;
        TimeProvider = builder.TimeProvider;
        Registry = new WorkflowRegistry(Options.MaxWorkflows);
        Model = new LocalModel(Registry, TimeProvider, Options.Model);
        Admission = new AdmissionController(Registry, builder.DropPolicy?.Invoke(Registry), Model, TimeProvider, Options.Admission);
        foreach (var workflow in builder.Workflows)
        {
            Registry.Resolve(workflow);
        }

        foreach (var (resourceOptions, scheduler) in builder.Resources)
        {
            AddResource(
                resourceOptions,
                scheduler?.Invoke(new SubtaskSchedulerContext(resourceOptions.Name, resourceOptions.Capacity, TimeProvider.TimestampFrequency, Registry)));
        }

        var policy = builder.RateLimitPolicy?.Invoke(new RateLimitPolicyContext(Registry, Options.RateAdaptation.Interval));
        RateAdaptation = new RateAdaptationController(Options.RateAdaptation, Model, policy, builder.RateSource, Admission, TimeProvider);
        Codec = new RequestContextCodec(TimeProvider, Registry);
    }

    /// <summary>Gets the options.</summary>
    public CiceroOptions Options { get; }

    /// <summary>Gets the process clock.</summary>
    public TimeProvider TimeProvider { get; }

    /// <summary>Gets the bounded set of tracked workflows.</summary>
    public WorkflowRegistry Registry { get; }

    /// <summary>Gets the per-workflow local model.</summary>
    public LocalModel Model { get; }

    /// <summary>Gets the admission controller.</summary>
    public AdmissionController Admission { get; }

    /// <summary>Gets the rate adaptation controller.</summary>
    public RateAdaptationController RateAdaptation { get; }

    /// <summary>Gets the context codec bound to this process's clock and registry.</summary>
    public RequestContextCodec Codec { get; }

    /// <summary>
    /// Starts a request at an entry point: a context that starts now, carrying the workflow's end-to-end estimates T.
    /// </summary>
    /// <param name="workflow">The workflow.</param>
    /// <param name="deadline">The end-to-end deadline δ, if any.</param>
    /// <returns>The context.</returns>
    public RequestContext StartRequest(WorkflowId workflow, TimeSpan? deadline = null)
    {
        var context = RequestContext.Start(workflow, TimeProvider, deadline);
        var estimate = Model.Get(Registry.Resolve(context)).EstimatedTotal;
        return estimate == default ? context : context.WithEstimatedTotal(estimate);
    }

    /// <summary>
    /// Records that an admitted request finished here: its time since admission feeds L, and at an entry point its
    /// totals (a + b) feed the end-to-end estimates T.
    /// </summary>
    /// <param name="context">The request.</param>
    /// <param name="admittedAt">When it was admitted, as a timestamp of <see cref="TimeProvider"/>.</param>
    /// <param name="isEntryPoint">Whether this process is where the request entered the system.</param>
    public void CompleteRequest(RequestContext context, long admittedAt, bool isEntryPoint) =>
        CompleteRequest(context, TimeProvider.GetElapsedTime(admittedAt), isEntryPoint);

    /// <summary>Like <see cref="CompleteRequest(RequestContext, long, bool)"/>, with the time since admission already measured.</summary>
    /// <param name="context">The request.</param>
    /// <param name="sinceAdmission">How long it took here since it was admitted.</param>
    /// <param name="isEntryPoint">Whether this process is where the request entered the system.</param>
    public void CompleteRequest(RequestContext context, TimeSpan sinceAdmission, bool isEntryPoint)
    {
        ArgumentNullException.ThrowIfNull(context);
        var model = Model.Get(Registry.Resolve(context));
        model.RecordCompletion(context, sinceAdmission);
        if (isEntryPoint)
        {
            model.RecordEndToEndTotals(new ProgressDelta(context.ElapsedServiceTime, context.ElapsedLoad));
        }
    }

    /// <summary>
    /// Records, at an entry point, what the caller of an admitted request got: its result, or a failure because the
    /// system could not serve it in time (it timed out, or was dropped further down). A policy compares the two to tell
    /// goodput from admissions (<c>BottleneckFairnessOptions.GoodputLimit</c>); the application's own errors are neither.
    /// </summary>
    /// <remarks>
    /// A failure of a request admitted with less than half its deadline left is not counted: it spent the rest waiting
    /// in this process's own limiter, so it says nothing of what the system below can serve, and counting it would let a
    /// low σ make its own evidence.
    /// </remarks>
    /// <param name="context">The request.</param>
    /// <param name="admittedAt">When it was admitted, as a timestamp of <see cref="TimeProvider"/>.</param>
    /// <param name="succeeded">Whether its caller got its result.</param>
    public void RecordEntryOutcome(RequestContext context, long admittedAt, bool succeeded)
    {
        ArgumentNullException.ThrowIfNull(context);
        var model = Model.Get(Registry.Resolve(context));
        if (succeeded)
        {
            model.RecordSucceeded();
            return;
        }

        if (context.Deadline is { } deadline && TimeProvider.GetElapsedTime(context.StartTimestamp, admittedAt) > deadline / 2)
        {
            return;
        }

        model.RecordFailed();
    }

    /// <summary>
    /// Adds a resource: a semaphore with a capacity and a queue bound whose waiters <paramref name="scheduler"/> orders
    /// (Table 5.1's ConfigureResourceSemaphore; change its thresholds later with <see cref="ResourceSemaphore.Configure"/>).
    /// </summary>
    /// <param name="options">The resource's options.</param>
    /// <param name="scheduler">Its scheduler; FIFO when <see langword="null"/>.</param>
    /// <returns>The resource.</returns>
    /// <exception cref="ArgumentException">A resource of that name exists.</exception>
    public ResourceSemaphore AddResource(ResourceSemaphoreOptions options, ISubtaskScheduler? scheduler = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        lock (_resourceLock)
        {
            if (_resources.ContainsKey(options.Name))
            {
                throw new ArgumentException($"A resource named '{options.Name}' already exists.", nameof(options));
            }

            var resource = new ResourceSemaphore(options, Registry, scheduler, TimeProvider, Options.Model);
            Model.AddResource(resource);
            _resources[options.Name] = resource;
            return resource;
        }
    }

    /// <summary>Gets a resource by name.</summary>
    /// <param name="name">The name.</param>
    /// <returns>The resource.</returns>
    /// <exception cref="KeyNotFoundException">No resource has that name.</exception>
    public ResourceSemaphore GetResource(string name) =>
        _resources.TryGetValue(name, out var resource) ? resource : throw new KeyNotFoundException($"No resource named '{name}' is configured.");

    /// <inheritdoc />
    public void Dispose()
    {
        RateAdaptation.Dispose();
        Admission.Dispose();
    }
}
