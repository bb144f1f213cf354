// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>A workflow (a tenant, an API class, a background job) and the DAG its requests execute.</summary>
public sealed class WorkflowSpec
{
    /// <summary>Gets or sets the workflow's id, unique in the scenario; it is the Cicero workflow id.</summary>
    public string? Name { get; set; }

    /// <summary>Gets or sets the service the workflow's requests enter at; the scenario's entry service when omitted.</summary>
    public string? Entry { get; set; }

    /// <summary>
    /// Gets or sets the table the workflow's requests touch: its partitions are placed (consistent hashing, blocks) by
    /// the table's name, so workflows naming the same table land on the same instances (the dissertation's 5.3.4
    /// hotspot). The workflow's own name when omitted. Workflows sharing a table must have the same partitions.
    /// </summary>
    public string? Table { get; set; }

    /// <summary>Gets or sets how many partitions the workflow's table has (consistent hashing and block placement).</summary>
    /// <value>1.</value>
    public int Partitions { get; set; } = 1;

    /// <summary>Gets or sets the end-to-end deadline δ in milliseconds; the configuration's deadline when omitted.</summary>
    public double? DeadlineMs { get; set; }

    /// <summary>
    /// Gets or sets a latency SLO in milliseconds on the workflow's end-to-end latency percentile (the configuration's
    /// <see cref="ConfigurationSpec.SloPercentile"/>), which the <c>cake-slo</c> rate-limit policy enforces; workflows
    /// without one are batch workflows to Cake.
    /// </summary>
    public double? LatencySloMs { get; set; }

    /// <summary>Gets or sets the stages the entry instance runs, in order.</summary>
    public IList<StageSpec>? Stages { get; set; }
}
