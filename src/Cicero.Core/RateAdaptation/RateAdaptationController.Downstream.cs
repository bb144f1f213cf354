// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;

namespace Cicero.RateAdaptation;

/// <content>
/// The downstream side of Algorithm 3, kept in <see cref="DownstreamRates"/> under the controller's lock: the instances
/// polled and their answers.
/// </content>
public sealed partial class RateAdaptationController
{
    /// <summary>Sets the instances of a downstream service this process calls (service discovery); others are forgotten.</summary>
    /// <param name="service">The service name.</param>
    /// <param name="instances">The instances; an empty list removes the service.</param>
    public void SetDownstreamInstances(string service, IEnumerable<string> instances)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(service);
        ArgumentNullException.ThrowIfNull(instances);
        lock (_lock)
        {
            _downstreamRates.SetInstances(service, instances);
        }
    }

    /// <summary>Gets every downstream instance this process polls.</summary>
    /// <returns>A snapshot.</returns>
    internal IReadOnlyList<DownstreamInstance> GetDownstreamInstances()
    {
        lock (_lock)
        {
            return _downstreamRates.Instances();
        }
    }

    /// <summary>
    /// Stores a downstream instance's answer (Algorithm 3, line 2); <see cref="DownstreamRateAnswer.Unsupported"/> notes
    /// that the instance takes no part in rate exchange.
    /// </summary>
    /// <param name="instance">The instance that answered; unknown instances are ignored.</param>
    /// <param name="answer">Its rates for this process.</param>
    /// <param name="now">When it answered.</param>
    public void RecordAnswer(DownstreamInstance instance, DownstreamRateAnswer answer, long now)
    {
        ArgumentNullException.ThrowIfNull(answer);
        lock (_lock)
        {
            _downstreamRates.RecordAnswer(instance, answer, now);
        }
    }

    /// <summary>Notes that a downstream instance did not answer; its last good answer ages towards the hold time.</summary>
    /// <param name="instance">The silent instance.</param>
    internal void RecordFailure(DownstreamInstance instance)
    {
        lock (_lock)
        {
            _downstreamRates.RecordFailure(instance);
        }
    }

    /// <summary>Gets how current a downstream service's answers are.</summary>
    /// <param name="service">The service name.</param>
    /// <returns>The status; <see cref="DownstreamStatus.Expired"/> for an unknown service.</returns>
    public DownstreamStatus GetDownstreamStatus(string service)
    {
        lock (_lock)
        {
            return _downstreamRates.Status(service, _timeProvider.GetTimestamp());
        }
    }

    /// <summary>Gets the last good answer an instance gave for a workflow (Table 5.1's GetAdmissionRatesFromRemote).</summary>
    /// <param name="instance">The downstream instance.</param>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The rate, or <see langword="null"/> if the instance never answered for it.</returns>
    public double? GetRemoteRate(DownstreamInstance instance, WorkflowId workflow)
    {
        lock (_lock)
        {
            return _downstreamRates.RemoteRate(instance, workflow.Value);
        }
    }
}
