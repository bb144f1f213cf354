// SPDX-License-Identifier: Apache-2.0

using Cicero.Resources;

namespace Cicero.Policies.Scheduling;

/// <summary>
/// Least attained service first (Algorithm 5's LASF-PRIORITY, st_elapsed): serves the request that has received the
/// least service so far end to end, which favours short-lived requests under bursty arrivals without knowing sizes.
/// </summary>
/// <remarks>
/// Algorithm 5 ranks by elapsed service time st; Table 5.3 lists elapsed work θ for LASF. The service-time reading
/// is the default; <see cref="LeastAttainedServiceScheduler(bool)"/> with <see langword="true"/> ranks by θ.
/// </remarks>
/// <param name="useLoad">Rank by elapsed load θ instead of elapsed service time st.</param>
public sealed class LeastAttainedServiceScheduler(bool useLoad = false) : PriorityOrderedScheduler
{
    /// <summary>Gets a factory under the name <see cref="SubtaskSchedulerNames.LeastAttainedServiceFirst"/> (ranking by st).</summary>
    public static SubtaskSchedulerFactory Factory { get; } =
        new DelegateSchedulerFactory(SubtaskSchedulerNames.LeastAttainedServiceFirst, _ => new LeastAttainedServiceScheduler());

    /// <inheritdoc />
    protected override double GetPriority(in SubtaskTicket ticket) =>
        useLoad ? ticket.Context.ElapsedLoad : ticket.Context.ElapsedServiceTime;
}
