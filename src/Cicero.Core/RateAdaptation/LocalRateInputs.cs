// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>
/// Everything a <see cref="IRateLimitPolicy"/> sees at one control step: every tracked workflow, every local resource,
/// and the load matrix l (workflow × resource).
/// </summary>
/// <remarks>Reused from step to step by its controller; a policy must not keep a reference past the call.</remarks>
public sealed class LocalRateInputs
{
    private WorkflowRateInputs[] _workflows = [];
    private ResourceRateInputs[] _resources = [];
    private double[] _loads = [];
    private double[] _demands = [];
    private int _workflowCount;
    private int _resourceCount;

    /// <summary>Gets the length of the control interval that just closed, in seconds.</summary>
    public double IntervalSeconds { get; private set; }

    /// <summary>Gets the workflows.</summary>
    public ReadOnlySpan<WorkflowRateInputs> Workflows => _workflows.AsSpan(0, _workflowCount);

    /// <summary>Gets the resources.</summary>
    public ReadOnlySpan<ResourceRateInputs> Resources => _resources.AsSpan(0, _resourceCount);

    /// <summary>Gets the load l of workflow <paramref name="workflow"/> on resource <paramref name="resource"/>, in permits.</summary>
    /// <param name="workflow">An index into <see cref="Workflows"/>.</param>
    /// <param name="resource">An index into <see cref="Resources"/>.</param>
    /// <returns>The load.</returns>
    public double GetLoad(int workflow, int resource)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)workflow, (uint)_workflowCount, nameof(workflow));
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)resource, (uint)_resourceCount, nameof(resource));
        return _loads[(workflow * _resourceCount) + resource];
    }

    /// <summary>
    /// Gets the demand of workflow <paramref name="workflow"/> on resource <paramref name="resource"/>: its offered load,
    /// sub-task arrivals per second times their mean service time, in permits.
    /// </summary>
    /// <param name="workflow">An index into <see cref="Workflows"/>.</param>
    /// <param name="resource">An index into <see cref="Resources"/>.</param>
    /// <returns>The demand.</returns>
    public double GetDemand(int workflow, int resource)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)workflow, (uint)_workflowCount, nameof(workflow));
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)resource, (uint)_resourceCount, nameof(resource));
        return _demands[(workflow * _resourceCount) + resource];
    }

    /// <summary>Creates inputs by hand, for policy tests and simulations.</summary>
    /// <param name="intervalSeconds">The interval length.</param>
    /// <param name="workflows">The workflows.</param>
    /// <param name="resources">The resources.</param>
    /// <param name="loads">Row-major loads: <c>loads[w * resources.Length + r]</c>.</param>
    /// <param name="demands">Row-major demands like <paramref name="loads"/>; the loads when empty.</param>
    /// <returns>The inputs.</returns>
    public static LocalRateInputs Create(
        double intervalSeconds,
        ReadOnlySpan<WorkflowRateInputs> workflows,
        ReadOnlySpan<ResourceRateInputs> resources,
        ReadOnlySpan<double> loads,
        ReadOnlySpan<double> demands = default)
    {
        if (loads.Length != workflows.Length * resources.Length)
        {
            throw new ArgumentException($"Expected {workflows.Length * resources.Length} loads (workflows × resources), got {loads.Length}.", nameof(loads));
        }

        if (!demands.IsEmpty && demands.Length != loads.Length)
        {
            throw new ArgumentException($"Expected {loads.Length} demands (workflows × resources), got {demands.Length}.", nameof(demands));
        }

        var inputs = new LocalRateInputs();
        inputs.Reset(intervalSeconds, workflows.Length, resources.Length);
        workflows.CopyTo(inputs._workflows);
        resources.CopyTo(inputs._resources);
        loads.CopyTo(inputs._loads);
        (demands.IsEmpty ? loads : demands).CopyTo(inputs._demands);
        return inputs;
    }

    internal void Reset(double intervalSeconds, int workflowCount, int resourceCount)
    {
        IntervalSeconds = intervalSeconds;
        _workflowCount = workflowCount;
        _resourceCount = resourceCount;
        if (_workflows.Length < workflowCount)
        {
            _workflows = new WorkflowRateInputs[workflowCount];
        }

        if (_resources.Length < resourceCount)
        {
            _resources = new ResourceRateInputs[resourceCount];
        }

        if (_loads.Length < workflowCount * resourceCount)
        {
            _loads = new double[workflowCount * resourceCount];
            _demands = new double[workflowCount * resourceCount];
        }
    }

    internal void SetWorkflow(int index, in WorkflowRateInputs inputs) => _workflows[index] = inputs;

    internal void SetResource(int index, in ResourceRateInputs inputs) => _resources[index] = inputs;

    internal void SetLoad(int workflow, int resource, double load, double demand)
    {
        _loads[(workflow * _resourceCount) + resource] = load;
        _demands[(workflow * _resourceCount) + resource] = demand;
    }
}
