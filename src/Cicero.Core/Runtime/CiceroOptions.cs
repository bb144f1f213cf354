// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Measurement;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Runtime;

/// <summary>Options of a <see cref="CiceroRuntime"/>: one process's Cicero configuration.</summary>
public sealed class CiceroOptions
{
    /// <summary>Gets or sets the bound on tracked workflows; further ids fold into the overflow workflow.</summary>
    /// <value>1024.</value>
    public int MaxWorkflows { get; set; } = WorkflowRegistry.DefaultMaxWorkflows;

    /// <summary>Gets the local model's options.</summary>
    public LocalModelOptions Model { get; } = new();

    /// <summary>Gets the admission controller's options.</summary>
    public AdmissionOptions Admission { get; } = new();

    /// <summary>Gets the rate adaptation options (process id, quantile q, interval, hold time).</summary>
    public RateAdaptationOptions RateAdaptation { get; } = new();
}
