// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.Context;

/// <summary>
/// The end-to-end metadata a request carries across every hop (dissertation Table 5.3): its workflow, start time,
/// deadline, and the progress metrics st (service time) and θ (total load) as (a, b) counter pairs.
/// </summary>
/// <remarks>
/// <para>
/// Immutable: the <c>With*</c> methods return copies, so parallel branches that hold a context through
/// <see cref="CiceroContext.Current"/> never see each other's edits. The one shared part is <see cref="Progress"/>,
/// the b counters of this hop, which every copy made at this hop adds to.
/// </para>
/// <para>
/// Times are local: <see cref="StartTimestamp"/> is a timestamp of this process's <see cref="TimeProvider"/>, and
/// <see cref="Deadline"/> (δ) is measured from the start. On the wire only durations travel (elapsed time and δ),
/// so hosts need no synchronised clocks.
/// </para>
/// </remarks>
public sealed class RequestContext
{
    private RequestContext(
        WorkflowId workflow,
        long startTimestamp,
        TimeSpan? deadline,
        ProgressDelta beforeArrival,
        ProgressDelta estimatedTotal,
        RequestProgress progress)
    {
        Workflow = workflow;
        StartTimestamp = startTimestamp;
        Deadline = deadline;
        BeforeArrival = beforeArrival;
        EstimatedTotal = estimatedTotal;
        Progress = progress;
    }

    /// <summary>Gets the workflow the request belongs to.</summary>
    public WorkflowId Workflow { get; }

    /// <summary>Gets when the request started end to end, as a timestamp of this process's <see cref="TimeProvider"/>.</summary>
    public long StartTimestamp { get; }

    /// <summary>Gets the end-to-end deadline δ, measured from the start; <see langword="null"/> when there is none.</summary>
    public TimeSpan? Deadline { get; }

    /// <summary>Gets the a counters: the progress accrued before the request reached this process.</summary>
    public ProgressDelta BeforeArrival { get; }

    /// <summary>
    /// Gets the entry point's estimate T of the end-to-end totals for this workflow (zero where unknown).
    /// </summary>
    public ProgressDelta EstimatedTotal { get; }

    /// <summary>Gets the b counters of this hop: local work plus what completed downstream calls reported.</summary>
    public RequestProgress Progress { get; }

    /// <summary>Gets the elapsed service time a + b, in seconds.</summary>
    public double ElapsedServiceTime => BeforeArrival.ServiceTime + Progress.Current.ServiceTime;

    /// <summary>Gets the elapsed load a + b.</summary>
    public double ElapsedLoad => BeforeArrival.Load + Progress.Current.Load;

    /// <summary>
    /// Gets the estimated remaining service time T − (a + b) in seconds, never below zero; zero when no estimate is known.
    /// </summary>
    public double RemainingServiceTime => Math.Max(0, EstimatedTotal.ServiceTime - ElapsedServiceTime);

    /// <summary>Gets the estimated remaining load T − (a + b), never below zero; zero when no estimate is known.</summary>
    public double RemainingLoad => Math.Max(0, EstimatedTotal.Load - ElapsedLoad);

    /// <summary>
    /// Gets or sets the operation this process serves the request in (Cicero's server interceptor sets the gRPC method,
    /// <c>/pkg.Service/Method</c>): the unit of the deadline-feasibility estimate
    /// (<see cref="Model.WorkflowModel.EstimateCompletionSeconds"/>). Local to this process: never sent downstream.
    /// </summary>
    /// <value><see langword="null"/>: the request is judged on its workflow's completion time.</value>
    public string? Operation { get; set; }

    /// <summary>Caches the registry slot of <see cref="Workflow"/>; a benign race, like a cached hash code.</summary>
    internal WorkflowSlot? CachedSlot { get; set; }

    /// <summary>Creates the context of a request that starts now at an entry point.</summary>
    /// <param name="workflow">The request's workflow.</param>
    /// <param name="timeProvider">The process clock.</param>
    /// <param name="deadline">The end-to-end deadline δ, if any; must be positive.</param>
    /// <returns>The context.</returns>
    public static RequestContext Start(WorkflowId workflow, TimeProvider timeProvider, TimeSpan? deadline = null)
    {
        ArgumentNullException.ThrowIfNull(timeProvider);
        return Create(workflow, timeProvider.GetTimestamp(), deadline, default, default, default);
    }

    /// <summary>Creates a context from all its parts, as a codec or a test does.</summary>
    /// <param name="workflow">The workflow; must not be the default id.</param>
    /// <param name="startTimestamp">The start, as a timestamp of this process's clock.</param>
    /// <param name="deadline">The deadline δ from the start, if any; must be positive.</param>
    /// <param name="beforeArrival">The a counters.</param>
    /// <param name="progress">The b counters so far.</param>
    /// <param name="estimatedTotal">The estimated end-to-end totals T (zero where unknown).</param>
    /// <returns>The context.</returns>
    /// <exception cref="ArgumentException">A value is out of range.</exception>
    public static RequestContext Create(
        WorkflowId workflow,
        long startTimestamp,
        TimeSpan? deadline,
        ProgressDelta beforeArrival,
        ProgressDelta progress,
        ProgressDelta estimatedTotal)
    {
        if (workflow.IsEmpty)
        {
            throw new ArgumentException("The workflow id must be set.", nameof(workflow));
        }

        if (deadline is { } d && d <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(deadline), d, "The deadline must be positive.");
        }

        ThrowIfInvalid(beforeArrival, nameof(beforeArrival));
        ThrowIfInvalid(estimatedTotal, nameof(estimatedTotal));
        return new RequestContext(workflow, startTimestamp, deadline, beforeArrival, estimatedTotal, new RequestProgress(progress));
    }

    /// <summary>Returns a copy with another deadline; the copy shares this hop's <see cref="Progress"/>.</summary>
    /// <param name="deadline">The deadline δ from the start, or <see langword="null"/> for none.</param>
    /// <returns>The copy.</returns>
    public RequestContext WithDeadline(TimeSpan? deadline)
    {
        if (deadline is { } d && d <= TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(deadline), d, "The deadline must be positive.");
        }

        return new RequestContext(Workflow, StartTimestamp, deadline, BeforeArrival, EstimatedTotal, Progress) { Operation = Operation };
    }

    /// <summary>Returns a copy with the entry point's end-to-end estimates T; it shares this hop's <see cref="Progress"/>.</summary>
    /// <param name="estimatedTotal">The estimated totals; zero means unknown.</param>
    /// <returns>The copy.</returns>
    public RequestContext WithEstimatedTotal(ProgressDelta estimatedTotal)
    {
        ThrowIfInvalid(estimatedTotal, nameof(estimatedTotal));
        return new RequestContext(Workflow, StartTimestamp, Deadline, BeforeArrival, estimatedTotal, Progress) { Operation = Operation };
    }

    /// <summary>
    /// Returns the context a downstream call carries: the counters become (a + b, 0) and the child gets fresh
    /// <see cref="Progress"/>, so what it accrues comes back to the parent only through its reply.
    /// </summary>
    /// <returns>The child's context.</returns>
    public RequestContext ForDownstreamCall()
    {
        var b = Progress.Current;
        var a = new ProgressDelta(BeforeArrival.ServiceTime + b.ServiceTime, BeforeArrival.Load + b.Load);
        return new RequestContext(Workflow, StartTimestamp, Deadline, a, EstimatedTotal, new RequestProgress());
    }

    /// <summary>Gets the wall time since the request started end to end.</summary>
    /// <param name="timeProvider">The process clock the start timestamp belongs to.</param>
    /// <returns>The elapsed time.</returns>
    public TimeSpan GetElapsedTime(TimeProvider timeProvider)
    {
        ArgumentNullException.ThrowIfNull(timeProvider);
        return timeProvider.GetElapsedTime(StartTimestamp);
    }

    /// <summary>Gets the time left until the deadline (negative once missed), or <see langword="null"/> without one.</summary>
    /// <param name="timeProvider">The process clock the start timestamp belongs to.</param>
    /// <returns>The remaining budget.</returns>
    public TimeSpan? GetRemainingBudget(TimeProvider timeProvider) =>
        Deadline is { } deadline ? deadline - GetElapsedTime(timeProvider) : null;

    /// <summary>Gets the deadline as a timestamp of a clock with <paramref name="timestampFrequency"/>, or <see cref="long.MaxValue"/>.</summary>
    /// <param name="timestampFrequency">Timestamps per second.</param>
    /// <returns>The absolute deadline.</returns>
    public long GetDeadlineTimestamp(long timestampFrequency) =>
        Deadline is { } deadline ? StartTimestamp + ToTimestampDelta(deadline.Ticks, timestampFrequency) : long.MaxValue;

    internal static long ToTimestampDelta(long timeSpanTicks, long timestampFrequency) =>
        timestampFrequency == TimeSpan.TicksPerSecond
            ? timeSpanTicks
            : (long)((double)timeSpanTicks * timestampFrequency / TimeSpan.TicksPerSecond);

    private static void ThrowIfInvalid(ProgressDelta value, string name)
    {
        if (value.Validate() is { } error)
        {
            throw new ArgumentException(error, name);
        }
    }
}
