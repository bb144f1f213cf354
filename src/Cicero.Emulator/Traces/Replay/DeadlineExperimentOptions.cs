// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Scenarios;
using Cicero.Policies.Registration;

namespace Cicero.Emulator.Traces.Replay;

/// <summary>Options of <see cref="DeadlineExperiment.Run"/>.</summary>
public sealed class DeadlineExperimentOptions
{
    /// <summary>Gets or sets the deadline factor: each request's deadline is this times its completion time in isolation.</summary>
    /// <value>4, as in the dissertation's section 5.3.2.</value>
    public double K { get; set; } = 4;

    /// <summary>
    /// Gets or sets the load levels: open-loop speed-ups on top of the plan's time scale
    /// (<see cref="SimulatedReplayOptions.SpeedUp"/>), or client counts when <see cref="ClosedLoop"/> is set.
    /// </summary>
    /// <value>1, 2, 4 and 8.</value>
    public IList<double> LoadLevels { get; set; } = [1, 2, 4, 8];

    /// <summary>
    /// Gets or sets a value indicating whether the load levels are numbers of closed-loop clients (the dissertation's
    /// 100 to 250 client threads) rather than open-loop speed-ups.
    /// </summary>
    /// <value><see langword="false"/>.</value>
    public bool ClosedLoop { get; set; }

    /// <summary>
    /// Gets or sets the configurations compared at each load level, in the table's order; null for
    /// <see cref="DeadlineExperiment.DefaultConfigurations"/> (baseline, FIFO+RC, EDF+RC, LSTF+RC).
    /// </summary>
    public IList<ConfigurationSpec>? Configurations { get; set; }

    /// <summary>
    /// Gets or sets a value indicating whether each request carries its own end-to-end estimate (the service time and
    /// load it accrued in isolation), standing in for an estimate from the request's size. When false, LSTF uses the
    /// per-workflow estimate Cicero learns, the average of requests that may differ in size by orders of magnitude.
    /// </summary>
    /// <value><see langword="true"/>.</value>
    public bool RequestEstimates { get; set; } = true;

    /// <summary>Gets or sets the seed of every run; the plan scenario's seed when null.</summary>
    public int? Seed { get; set; }

    /// <summary>
    /// Gets or sets what hears the experiment's progress: the requests offered so far over all its runs (the isolation
    /// run, then one run per load level and configuration, each the whole plan), every 1,024 requests.
    /// </summary>
    /// <value>None.</value>
    public IProgress<long>? Progress { get; set; }

    /// <summary>
    /// Gets or sets a token that stops the experiment (Ctrl-C): the run in progress stops and is left out, and the result
    /// holds the rows of the runs that finished.
    /// </summary>
    public CancellationToken Stop { get; set; }

    /// <summary>Gets or sets the policies names resolve against; the default catalog when null.</summary>
    public PolicyCatalog? Catalog { get; set; }
}
