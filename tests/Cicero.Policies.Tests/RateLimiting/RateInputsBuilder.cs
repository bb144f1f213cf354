// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

/// <summary>Builds <see cref="LocalRateInputs"/> by hand for rate-limit policy tests.</summary>
internal sealed class RateInputsBuilder
{
    private readonly List<WorkflowRateInputs> _workflows = [];
    private readonly List<(string Name, int Capacity)> _resources = [];
    private readonly List<double[]> _loads = [];

    public WorkflowRegistry Registry { get; } = new();

    public RateInputsBuilder Resource(string name, int capacity)
    {
        _resources.Add((name, capacity));
        return this;
    }

    /// <summary>Adds a workflow; <paramref name="loads"/> has one load per resource added so far.</summary>
    public RateInputsBuilder Workflow(
        string id,
        double current,
        double downstream = double.PositiveInfinity,
        double arrival = 0,
        double admitted = 0,
        params double[] loads)
    {
        var row = new double[_resources.Count];
        loads.CopyTo(row, 0);
        _workflows.Add(new WorkflowRateInputs(Registry.Resolve(new WorkflowId(id)), current, downstream, arrival, admitted));
        _loads.Add(row);
        return this;
    }

    public LocalRateInputs Build()
    {
        var resources = new ResourceRateInputs[_resources.Count];
        var loads = new double[_workflows.Count * _resources.Count];
        for (var r = 0; r < resources.Length; r++)
        {
            var total = 0.0;
            for (var w = 0; w < _workflows.Count; w++)
            {
                loads[(w * resources.Length) + r] = _loads[w][r];
                total += _loads[w][r];
            }

            resources[r] = new ResourceRateInputs(_resources[r].Name, _resources[r].Capacity, total);
        }

        return LocalRateInputs.Create(0.1, _workflows.ToArray(), resources, loads);
    }

    public static double[] Run(IRateLimitPolicy policy, LocalRateInputs inputs)
    {
        var rates = new double[inputs.Workflows.Length];
        policy.ComputeLocalRates(inputs, rates, now: 0);
        return rates;
    }
}
