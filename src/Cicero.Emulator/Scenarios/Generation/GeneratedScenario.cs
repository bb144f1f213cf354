// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios.Generation;

/// <summary>A scenario made by <see cref="ScenarioGenerator"/>, with what the generator knows about it.</summary>
public sealed class GeneratedScenario
{
    /// <summary>Gets the scenario, in the scenario file format; its configurations are baseline, rc, drr and rc+drr.</summary>
    public required ScenarioSpec Scenario { get; init; }

    /// <summary>Gets the seed it was generated from.</summary>
    public int Seed { get; init; }

    /// <summary>Gets the kind of load: one of <see cref="GeneratedLoadKinds.All"/>.</summary>
    public required string LoadKind { get; init; }

    /// <summary>Gets the service whose work resource has the highest utilisation at the offered load.</summary>
    public required string BottleneckService { get; init; }

    /// <summary>Gets the bottleneck's capacity in requests per second of a tenant of unit cost.</summary>
    public double CapacityPerSecond { get; init; }

    /// <summary>Gets the mean latency on an idle graph of the costliest request a tenant can have, in milliseconds.</summary>
    public double UnloadedLatencyMs { get; init; }

    /// <summary>Gets the configurations' end-to-end deadline and the RPC timeout, in milliseconds.</summary>
    public double DeadlineMs { get; init; }

    /// <summary>Gets the compliant tenants' average offered load as a fraction of the bottleneck's capacity.</summary>
    public double Load { get; init; }

    /// <summary>Gets the aggressive tenant's workflow, for <see cref="GeneratedLoadKinds.Aggressor"/>.</summary>
    public string? Aggressor { get; init; }

    /// <summary>Gets the aggressor's offered rate over its fair share of the bottleneck, for <see cref="GeneratedLoadKinds.Aggressor"/>.</summary>
    public double AggressorFactor { get; init; }

    /// <summary>Gets the bursting tenant's workflow, for <see cref="GeneratedLoadKinds.Bursty"/>.</summary>
    public string? Bursty { get; init; }

    /// <summary>Gets each workflow's cost: the bottleneck's capacity a request of it uses, in requests of unit cost.</summary>
    public required IReadOnlyDictionary<string, double> Costs { get; init; }

    /// <summary>Gets the workflows offered load by well-behaved tenants (every one but the aggressor).</summary>
    public required IReadOnlyList<string> Compliant { get; init; }

    /// <summary>Creates the same scenario without the aggressor's workload (the reference the guarantee compares with).</summary>
    /// <returns>A copy; this scenario when there is no aggressor.</returns>
    public ScenarioSpec WithoutAggressor()
    {
        if (Aggressor is null)
        {
            return Scenario;
        }

        var copy = ScenarioLoader.Parse(ScenarioLoader.ToJson(Scenario), Scenario.Name);
        copy.Workloads = copy.Workloads!.Where(w => w.Workflow != Aggressor).ToList();
        copy.Name += "-without-aggressor";
        return copy;
    }
}
