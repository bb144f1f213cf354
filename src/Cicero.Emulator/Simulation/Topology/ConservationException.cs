// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>
/// A run ended with requests unaccounted for: offered ≠ completed + dropped + failed for a workflow, which means the
/// simulator (or a policy) lost a request. Results of such a run are not trustworthy, so the run fails.
/// </summary>
public sealed class ConservationException : InvalidOperationException
{
    /// <summary>Creates the exception.</summary>
    public ConservationException()
    {
        Workflow = string.Empty;
    }

    /// <summary>Creates the exception with a message.</summary>
    /// <param name="message">The message.</param>
    public ConservationException(string message)
        : base(message)
    {
        Workflow = string.Empty;
    }

    /// <summary>Creates the exception with a message and a cause.</summary>
    /// <param name="message">The message.</param>
    /// <param name="innerException">The cause.</param>
    public ConservationException(string message, Exception innerException)
        : base(message, innerException)
    {
        Workflow = string.Empty;
    }

    /// <summary>Creates the exception from the counts that do not add up.</summary>
    /// <param name="configuration">The configuration of the run.</param>
    /// <param name="workflow">The workflow.</param>
    /// <param name="offered">Requests offered.</param>
    /// <param name="completed">Requests completed.</param>
    /// <param name="dropped">Requests dropped with a reason.</param>
    /// <param name="failed">Requests failed.</param>
    public ConservationException(string configuration, string workflow, long offered, long completed, long dropped, long failed)
        : base($"Conservation broken for workflow '{workflow}' under configuration '{configuration}': offered {offered} != completed {completed} + dropped {dropped} + failed {failed} "
            + $"({offered - completed - dropped - failed} request(s) never reached an outcome).")
    {
        Workflow = workflow;
        Offered = offered;
        Completed = completed;
        Dropped = dropped;
        Failed = failed;
    }

    /// <summary>Gets the workflow whose counts do not add up.</summary>
    public string Workflow { get; }

    /// <summary>Gets the requests offered.</summary>
    public long Offered { get; }

    /// <summary>Gets the requests completed.</summary>
    public long Completed { get; }

    /// <summary>Gets the requests dropped.</summary>
    public long Dropped { get; }

    /// <summary>Gets the requests failed.</summary>
    public long Failed { get; }

    /// <summary>Gets the requests that never reached an outcome.</summary>
    public long Unaccounted => Offered - Completed - Dropped - Failed;
}
