// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Measurement;

/// <summary>
/// Options of the measurements: the moving averages and tracking bounds of a <see cref="Model.LocalModel"/> and of the
/// resource semaphores that feed it. They sit below both (Measurement), so a semaphore takes them without reaching up.
/// </summary>
public sealed class LocalModelOptions
{
    /// <summary>Gets or sets the weight of a new interval's measurement in each moving average.</summary>
    /// <value>0.5: the last interval counts as much as all before it, so a 100 ms interval reacts within a few hundred ms.</value>
    public double EwmaWeight { get; set; } = 0.5;

    /// <summary>Gets or sets the weight of a new sample in per-request averages (service and completion times).</summary>
    /// <value>0.1.</value>
    public double SampleEwmaWeight { get; set; } = 0.1;

    /// <summary>Gets or sets how many distinct callers a workflow's demand is tracked for; others share one entry.</summary>
    /// <value>256.</value>
    public int MaxCallersPerWorkflow { get; set; } = 256;

    /// <summary>Gets or sets how many downstream services and instances a workflow's calls are tracked for.</summary>
    /// <value>1024.</value>
    public int MaxDownstreamTargets { get; set; } = 1024;

    internal void Validate()
    {
        if (!(EwmaWeight > 0 && EwmaWeight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(EwmaWeight), EwmaWeight, "Must be in (0, 1].");
        }

        if (!(SampleEwmaWeight > 0 && SampleEwmaWeight <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(SampleEwmaWeight), SampleEwmaWeight, "Must be in (0, 1].");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(MaxCallersPerWorkflow, 1, nameof(MaxCallersPerWorkflow));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaxDownstreamTargets, 1, nameof(MaxDownstreamTargets));
    }
}
