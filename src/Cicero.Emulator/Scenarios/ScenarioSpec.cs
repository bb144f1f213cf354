// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// The root of a scenario file: the topology (services, resources, routes), the workflows and their workloads, the
/// Cicero configurations to compare, and the run's length and seed. <c>docs/emulator.md</c> describes every field.
/// </summary>
/// <remarks>
/// A plain settable model for System.Text.Json; every property is optional at the JSON level so that
/// <see cref="ScenarioLoader"/> can report all missing or invalid fields at once, each with its JSON path.
/// </remarks>
public sealed class ScenarioSpec
{
    /// <summary>Gets or sets the scenario's name, shown in results.</summary>
    public string? Name { get; set; }

    /// <summary>Gets or sets a free-text description.</summary>
    public string? Description { get; set; }

    /// <summary>Gets or sets the seed of every random stream of a run (arrivals, service times, routing).</summary>
    /// <value>1.</value>
    public int Seed { get; set; } = 1;

    /// <summary>Gets or sets how long workloads generate requests, in seconds of virtual time.</summary>
    /// <value>60.</value>
    public double DurationSeconds { get; set; } = 60;

    /// <summary>Gets or sets the start of the measured window; requests arriving earlier are run but not reported.</summary>
    /// <value>5.</value>
    public double WarmUpSeconds { get; set; } = 5;

    /// <summary>Gets or sets the service where workflows enter unless they name another.</summary>
    /// <value>"fe".</value>
    public string EntryService { get; set; } = "fe";

    /// <summary>Gets or sets the network model; defaults when omitted.</summary>
    public NetworkSpec? Network { get; set; }

    /// <summary>
    /// Gets or sets the services. When omitted (<see langword="null"/>), the dissertation's topology is used:
    /// 10 FE, 5 Auth, 10 PS, 10 BS with its resources and routes (see <see cref="DefaultTopology"/>).
    /// </summary>
    public IList<ServiceSpec>? Services { get; set; }

    /// <summary>Gets or sets how calls between services pick an instance; a pair without a route picks at random.</summary>
    public IList<RouteSpec>? Routes { get; set; }

    /// <summary>Gets or sets the workflows (tenants, API classes) and their execution DAGs.</summary>
    public IList<WorkflowSpec>? Workflows { get; set; }

    /// <summary>Gets or sets the load offered per workflow.</summary>
    public IList<WorkloadSpec>? Workloads { get; set; }

    /// <summary>Gets or sets the Cicero configurations to run the scenario under, side by side.</summary>
    public IList<ConfigurationSpec>? Configurations { get; set; }

    /// <summary>Gets or sets faults injected into instances (killed, slow, cut off from rate exchange); none by default.</summary>
    public IList<FaultSpec>? Faults { get; set; }
}
