// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Workflows;

namespace Cicero.Admission;

/// <summary>A request arriving at a workflow's rate limiter, as an <see cref="IDropPolicy"/> sees it.</summary>
public readonly struct AdmissionCandidate
{
    internal AdmissionCandidate(
        RequestContext context,
        WorkflowSlot workflow,
        long now,
        long timestampFrequency,
        double completionSeconds,
        double backlog,
        double admissionRate,
        int queueLength,
        int queueLimit)
    {
        Context = context;
        Workflow = workflow;
        Now = now;
        TimestampFrequency = timestampFrequency;
        EstimatedCompletionSeconds = completionSeconds;
        Backlog = backlog;
        AdmissionRate = admissionRate;
        QueueLength = queueLength;
        QueueLimit = queueLimit;
    }

    /// <summary>Gets the request's context.</summary>
    public RequestContext Context { get; }

    /// <summary>Gets the request's workflow.</summary>
    public WorkflowSlot Workflow { get; }

    /// <summary>Gets the current timestamp.</summary>
    public long Now { get; }

    /// <summary>Gets the clock's timestamps per second.</summary>
    public long TimestampFrequency { get; }

    /// <summary>
    /// Gets the estimated time L this request takes here once admitted, in seconds (0 if unknown): the workflow's average,
    /// scaled to the request's own end-to-end estimate where it carries one (<see cref="Model.WorkflowModel.EstimateCompletionSeconds"/>).
    /// </summary>
    public double EstimatedCompletionSeconds { get; }

    /// <summary>
    /// Gets the backlog ahead of the request at the limiter, in requests: those queued plus the fraction of a token
    /// still missing. Backlog ÷ σ is the expected queueing delay.
    /// </summary>
    public double Backlog { get; }

    /// <summary>Gets the workflow's admission rate σ, requests per second (may be +∞).</summary>
    public double AdmissionRate { get; }

    /// <summary>Gets the number of requests queued at the limiter.</summary>
    public int QueueLength { get; }

    /// <summary>Gets the limiter's queue bound.</summary>
    public int QueueLimit { get; }

    /// <summary>Gets the time since the request started end to end, in seconds.</summary>
    public double ElapsedSeconds => (double)(Now - Context.StartTimestamp) / TimestampFrequency;
}
