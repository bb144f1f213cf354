// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A workflow (a tenant, an API class, a background job) and the DAG its requests execute.</summary>
public sealed class WorkflowSpec
{
    /// <summary>Gets or sets the workflow's id, unique in the scenario; it is the Cicero workflow id.</summary>
    public string? Name { get; set; }

    /// <summary>Gets or sets the service the workflow's requests enter at; the scenario's entry service when omitted.</summary>
    public string? Entry { get; set; }

    /// <summary>Gets or sets how many partitions the workflow's table has (consistent hashing and block placement).</summary>
    /// <value>1.</value>
    public int Partitions { get; set; } = 1;

    /// <summary>Gets or sets the end-to-end deadline δ in milliseconds; the configuration's deadline when omitted.</summary>
    public double? DeadlineMs { get; set; }

    /// <summary>Gets or sets the stages the entry instance runs, in order.</summary>
    public IList<StageSpec>? Stages { get; set; }
}
