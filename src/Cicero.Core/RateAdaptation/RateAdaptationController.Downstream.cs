// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;
using Cicero.Model;

namespace Cicero.RateAdaptation;

/// <content>
/// The downstream side of Algorithm 3: the instances polled, their answers (held for the hold time), and σ′ as the
/// q-quantile of the rates they imply here, per service, then the minimum over services.
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
            var previous = _services.TryGetValue(service, out var existing) ? existing : null;
            var next = new DownstreamService();
            foreach (var name in instances)
            {
                ArgumentException.ThrowIfNullOrWhiteSpace(name, nameof(instances));
                if (next.Find(name) is not null)
                {
                    continue;
                }

                next.Instances.Add(previous?.Find(name) ?? new DownstreamInstanceState(name));
            }

            if (next.Instances.Count == 0)
            {
                _services.Remove(service);
            }
            else
            {
                _services[service] = next;
            }
        }
    }

    /// <summary>Gets every downstream instance this process polls.</summary>
    /// <returns>A snapshot.</returns>
    public IReadOnlyList<DownstreamInstance> GetDownstreamInstances()
    {
        lock (_lock)
        {
            var list = new List<DownstreamInstance>();
            foreach (var (service, state) in _services)
            {
                foreach (var instance in state.Instances)
                {
                    list.Add(new DownstreamInstance(service, instance.Name));
                }
            }

            return list;
        }
    }

    /// <summary>Stores a downstream instance's answer (Algorithm 3, line 2).</summary>
    /// <param name="instance">The instance that answered; unknown instances are ignored.</param>
    /// <param name="answer">Its rates for this process.</param>
    /// <param name="now">When it answered.</param>
    public void RecordAnswer(DownstreamInstance instance, DownstreamRateAnswer answer, long now)
    {
        ArgumentNullException.ThrowIfNull(answer);
        lock (_lock)
        {
            if (_services.TryGetValue(instance.Service, out var service) && service.Find(instance.Instance) is { } state)
            {
                state.Rates.Clear();
                foreach (var rate in answer.Rates)
                {
                    state.Rates[rate.Workflow.Value] = rate.Rate;
                }

                state.LastAnswer = now;
                state.ConsecutiveFailures = 0;
                state.Unsupported = false;
            }
        }
    }

    /// <summary>Notes that a downstream instance did not answer; its last good answer ages towards the hold time.</summary>
    /// <param name="instance">The silent instance.</param>
    public void RecordFailure(DownstreamInstance instance)
    {
        lock (_lock)
        {
            if (_services.TryGetValue(instance.Service, out var service) && service.Find(instance.Instance) is { } state)
            {
                state.ConsecutiveFailures++;
            }
        }
    }

    /// <summary>
    /// Notes that a downstream instance does not take part in rate exchange (it runs no Cicero): it limits nothing, and
    /// a service all of whose instances are like it reports <see cref="DownstreamStatus.Unsupported"/>.
    /// </summary>
    /// <param name="instance">The instance.</param>
    public void RecordUnsupported(DownstreamInstance instance)
    {
        lock (_lock)
        {
            if (_services.TryGetValue(instance.Service, out var service) && service.Find(instance.Instance) is { } state)
            {
                state.Unsupported = true;
                state.Rates.Clear();
                state.LastAnswer = long.MinValue;
            }
        }
    }

    private double AggregateDownstream(WorkflowModel workflowModel, long now)
    {
        var result = double.PositiveInfinity;
        var workflowId = workflowModel.Workflow.Value;
        foreach (var (serviceName, service) in _services)
        {
            if (!workflowModel.TryGetAmplification(serviceName, out var amplification))
            {
                // This workflow has not been seen calling the service, so the service does not constrain it.
                continue;
            }

            var usable = 0;
            var used = 0;
            foreach (var instance in service.Instances)
            {
                if (IsUsable(instance, now))
                {
                    usable++;
                    if (workflowModel.GetInstanceFraction(serviceName, instance.Name) > 0)
                    {
                        used++;
                    }
                }
            }

            if (usable == 0)
            {
                continue;
            }

            if (_values.Length < usable)
            {
                _values = new double[usable * 2];
            }

            var n = 0;
            foreach (var instance in service.Instances)
            {
                if (!IsUsable(instance, now))
                {
                    continue;
                }

                // An instance that does not list the workflow does not limit it: it counts as +∞ in the quantile.
                var answer = instance.Rates.TryGetValue(workflowId, out var listed) ? listed : double.PositiveInfinity;

                // Only the instances this caller actually sends to speak for it; before any call, assume an even spread.
                var fraction = used > 0 ? workflowModel.GetInstanceFraction(serviceName, instance.Name) : 1.0 / usable;
                if (fraction > 0)
                {
                    _values[n++] = RateAggregation.ImpliedRequestRate(answer, amplification, Math.Min(1, fraction));
                }
            }

            if (n > 0)
            {
                result = Math.Min(result, RateAggregation.Quantile(_values.AsSpan(0, n), _options.Quantile));
            }
        }

        return result;
    }

    private bool IsUsable(DownstreamInstanceState instance, long now) =>
        instance.LastAnswer != long.MinValue && now - instance.LastAnswer <= _holdTicks;

    private DownstreamStatus ClassifyLocked(DownstreamService service, long now)
    {
        var fresh = 0;
        var usable = 0;
        var unsupported = 0;
        foreach (var instance in service.Instances)
        {
            if (instance.Unsupported)
            {
                unsupported++;
            }

            if (IsUsable(instance, now))
            {
                usable++;
                if (now - instance.LastAnswer <= _freshTicks)
                {
                    fresh++;
                }
            }
        }

        return unsupported > 0 && unsupported == service.Instances.Count ? DownstreamStatus.Unsupported
            : usable == 0 ? DownstreamStatus.Expired
            : fresh == service.Instances.Count ? DownstreamStatus.Fresh
            : DownstreamStatus.Holding;
    }

    private void RecordStatuses(long now)
    {
        if (!CiceroInstruments.DownstreamStatus.Enabled)
        {
            return;
        }

        foreach (var (name, service) in _services)
        {
            CiceroInstruments.DownstreamStatus.Record(
                (int)ClassifyLocked(service, now), new KeyValuePair<string, object?>(CiceroTelemetry.ServiceTag, name));
        }
    }
}
