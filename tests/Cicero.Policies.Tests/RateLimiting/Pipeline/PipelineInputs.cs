// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting.Pipeline;

/// <summary>Builds one interval's inputs for a single resource and hands them through a detector, as the policy does.</summary>
internal sealed class PipelineInputs
{
    private readonly WorkflowRegistry _registry = new();

    public WorkflowRateInputs Workflow(string name, double current, double arrival, double admitted, double downstream = double.PositiveInfinity) =>
        new(_registry.Resolve(name), current, downstream, arrival, admitted);

    public static LocalRateInputs OneResource(int capacity, WorkflowRateInputs[] workflows, double[] loads, int standing = 0, double interval = 0.1) =>
        LocalRateInputs.Create(
            interval,
            workflows,
            [new ResourceRateInputs("disk", capacity, loads.Sum()) { TotalDemand = loads.Sum(), StandingQueueIntervals = standing }],
            loads);

    /// <summary>Starts an interval read by Algorithm 4's queue detector (held-and-waiting load, no window).</summary>
    public static RateControlInterval Read(LocalRateInputs inputs, BottleneckFairnessOptions? options = null)
    {
        var detector = new DemandOverloadDetector(options ?? BottleneckFairnessOptions.AsWritten());
        var interval = new RateControlInterval();
        interval.Start(inputs, detector, detector.Detect(inputs));
        return interval;
    }
}
