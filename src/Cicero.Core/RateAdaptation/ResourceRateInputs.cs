// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <summary>What a rate-limit policy knows about one local resource at a control step.</summary>
/// <param name="name">The resource's name.</param>
/// <param name="capacity">Its capacity c, in permits.</param>
/// <param name="totalLoad">The sum over workflows of their load l, in permits.</param>
public readonly struct ResourceRateInputs(string name, int capacity, double totalLoad)
{
    /// <summary>Gets the resource's name.</summary>
    public string Name { get; init; } = name;

    /// <summary>Gets its capacity c, in permits.</summary>
    public int Capacity { get; init; } = capacity;

    /// <summary>Gets the sum over workflows of their load l, in permits.</summary>
    public double TotalLoad { get; init; } = totalLoad;

    /// <summary>Gets the spare capacity fraction φ = (c − Σl) / c; negative when overloaded.</summary>
    public double SpareFraction => (Capacity - TotalLoad) / Capacity;

    /// <summary>
    /// Gets the sum over workflows of their demand, the offered load (sub-task arrivals × mean service time), in
    /// permits; 0 when not measured.
    /// </summary>
    public double TotalDemand { get; init; }

    /// <summary>Gets how many control intervals in a row the resource's wait queue never emptied (a standing queue).</summary>
    public int StandingQueueIntervals { get; init; }

    /// <summary>
    /// Gets the mean service time of a sub-task here, in seconds, weighted by the workflows' arrivals; 0 before any
    /// sub-task has completed. A policy scales its time windows with it: a queue that stands for 300 ms says little on a
    /// resource where one sub-task holds a permit for 200 ms.
    /// </summary>
    public double MeanServiceTime { get; init; }
}
