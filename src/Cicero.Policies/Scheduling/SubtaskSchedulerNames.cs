// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Policies.Scheduling;

/// <summary>The configuration names of the built-in sub-task schedulers (FIFO's is <c>SubtaskSchedulers.Fifo</c> in Core).</summary>
public static class SubtaskSchedulerNames
{
    /// <summary>First in, first out.</summary>
    public const string Fifo = Cicero.Resources.SubtaskSchedulers.Fifo;

    /// <summary>Deficit round robin across workflows.</summary>
    public const string DeficitRoundRobin = "drr";

    /// <summary>Earliest deadline first.</summary>
    public const string EarliestDeadlineFirst = "edf";

    /// <summary>Least slack time first.</summary>
    public const string LeastSlackTimeFirst = "lstf";

    /// <summary>Shortest remaining (service) time first.</summary>
    public const string ShortestRemainingTimeFirst = "srtf";

    /// <summary>Least attained service first.</summary>
    public const string LeastAttainedServiceFirst = "lasf";

    /// <summary>Shortest job first.</summary>
    public const string ShortestJobFirst = "sjf";

    /// <summary>Strict priority by workflow.</summary>
    public const string StrictPriority = "priority";

    /// <summary>Cake's first level: proportional shares plus reservations.</summary>
    public const string CakeShares = "cake-shares";
}
