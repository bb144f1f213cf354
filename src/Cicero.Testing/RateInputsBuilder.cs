// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Testing;

/// <summary>
/// Builds the <see cref="LocalRateInputs"/> a rate-limit policy sees in one control interval, by hand: resources with
/// capacities, workflows with their rates, and each workflow's load on each resource (totals are summed for you).
/// </summary>
/// <example>
/// <code>
/// var inputs = new RateInputsBuilder().Resource("cpu", 4).Workflow("a", current: 100, admitted: 80, loads: 3.6).Build();
/// var rates = RateInputsBuilder.Run(policy, inputs);
/// </code>
/// </example>
public sealed class RateInputsBuilder
{
    private readonly List<WorkflowRateInputs> _workflows = [];
    private readonly List<(string Name, int Capacity)> _resources = [];
    private readonly List<double[]> _loads = [];

    /// <summary>Gets the registry the workflows are resolved in (a policy's factory takes the same one).</summary>
    public WorkflowRegistry Registry { get; } = new();

    /// <summary>Gets or sets the interval the inputs cover, in seconds.</summary>
    /// <value>0.1 (the default control interval).</value>
    public double IntervalSeconds { get; set; } = 0.1;

    /// <summary>Adds a local resource.</summary>
    /// <param name="name">Its name.</param>
    /// <param name="capacity">Its permits.</param>
    /// <returns>This builder.</returns>
    public RateInputsBuilder Resource(string name, int capacity)
    {
        _resources.Add((name, capacity));
        return this;
    }

    /// <summary>Adds a workflow; <paramref name="loads"/> has one load per resource added so far.</summary>
    /// <param name="id">The workflow id.</param>
    /// <param name="current">The rate σ announced last interval.</param>
    /// <param name="downstream">The downstream bottleneck rate σ′ (+∞ when nothing downstream limits it).</param>
    /// <param name="arrival">The arrival rate, requests per second.</param>
    /// <param name="admitted">The admitted rate, requests per second.</param>
    /// <param name="loads">Its load on each resource, in the order the resources were added.</param>
    /// <returns>This builder.</returns>
    public RateInputsBuilder Workflow(
        string id,
        double current,
        double downstream = double.PositiveInfinity,
        double arrival = 0,
        double admitted = 0,
        params double[] loads)
    {
        ArgumentNullException.ThrowIfNull(loads);
        if (loads.Length > _resources.Count)
        {
            throw new ArgumentException($"Workflow '{id}' has {loads.Length} loads but only {_resources.Count} resources were added before it.", nameof(loads));
        }

        var row = new double[_resources.Count];
        loads.CopyTo(row, 0);
        _workflows.Add(new WorkflowRateInputs(Registry.Resolve(new WorkflowId(id)), current, downstream, arrival, admitted));
        _loads.Add(row);
        return this;
    }

    /// <summary>Builds the inputs.</summary>
    /// <returns>The inputs of one control interval.</returns>
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

        return LocalRateInputs.Create(IntervalSeconds, _workflows.ToArray(), resources, loads);
    }

    /// <summary>Runs a policy once, as the control loop does, and returns the local rates it wrote.</summary>
    /// <param name="policy">The policy.</param>
    /// <param name="inputs">The inputs.</param>
    /// <returns>One rate per workflow, +∞ where the policy wrote nothing.</returns>
    public static double[] Run(IRateLimitPolicy policy, LocalRateInputs inputs)
    {
        ArgumentNullException.ThrowIfNull(policy);
        ArgumentNullException.ThrowIfNull(inputs);
        var rates = new double[inputs.Workflows.Length];
        Array.Fill(rates, double.PositiveInfinity);
        policy.ComputeLocalRates(inputs, rates, now: 0);
        return rates;
    }
}
