// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;

namespace Cicero.Tests.RateAdaptation;

/// <summary>A bottleneck-style stub: the process can serve <see cref="Capacity"/> requests per second of any workflow.</summary>
internal sealed class CapacityPolicy(double capacity) : IRateLimitPolicy
{
    public double Capacity { get; set; } = capacity;

    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now) => localRates.Fill(Capacity);
}

/// <summary>Returns a fixed rate, or NaN to exercise validation.</summary>
internal sealed class FixedPolicy(double rate) : IRateLimitPolicy
{
    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now) => localRates.Fill(rate);
}

/// <summary>Keeps what each step handed it, and limits nothing.</summary>
internal sealed class InputsRecordingPolicy : IRateLimitPolicy
{
    public List<WorkflowRateInputs> Seen { get; } = [];

    public void ComputeLocalRates(LocalRateInputs inputs, Span<double> localRates, long now)
    {
        Seen.AddRange(inputs.Workflows.ToArray());
        localRates.Fill(double.PositiveInfinity);
    }
}
