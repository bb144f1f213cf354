// SPDX-License-Identifier: Apache-2.0

using Cicero.Diagnostics;
using Cicero.Model;

namespace Cicero.RateAdaptation;

/// <summary>
/// The downstream side of Algorithm 3 at one process: the instances it polls, their last good answers (held for the
/// hold time), and σ′ of a workflow as the q-quantile of the rates those answers imply here, per service, then the
/// minimum over services.
/// </summary>
/// <remarks>Not thread-safe: <see cref="RateAdaptationController"/> calls it under its lock.</remarks>
internal sealed class DownstreamRates(RateAdaptationOptions options, long holdTicks, long freshTicks)
{
    private readonly Dictionary<string, DownstreamService> _services = new(StringComparer.Ordinal);
    private double[] _values = new double[16];

    /// <summary>Replaces a service's instances; instances it keeps keep their answers, an empty list removes it.</summary>
    public void SetInstances(string service, IEnumerable<string> instances)
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

    /// <summary>Every instance polled, as a new list.</summary>
    public List<DownstreamInstance> Instances()
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

    /// <summary>Stores an instance's answer; an unknown instance is ignored.</summary>
    public void RecordAnswer(DownstreamInstance instance, DownstreamRateAnswer answer, long now)
    {
        if (answer.IsUnsupported)
        {
            RecordUnsupported(instance);
        }
        else if (Find(instance) is { } state)
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

    /// <summary>Notes a silent instance; its last good answer ages towards the hold time.</summary>
    public void RecordFailure(DownstreamInstance instance)
    {
        if (Find(instance) is { } state)
        {
            state.ConsecutiveFailures++;
        }
    }

    /// <summary>Notes an instance without rate exchange: it limits nothing from now on.</summary>
    private void RecordUnsupported(DownstreamInstance instance)
    {
        if (Find(instance) is { } state)
        {
            state.Unsupported = true;
            state.Rates.Clear();
            state.LastAnswer = long.MinValue;
        }
    }

    /// <summary>The last good answer an instance gave for a workflow, or <see langword="null"/>.</summary>
    public double? RemoteRate(DownstreamInstance instance, string workflow) =>
        Find(instance) is { } state && state.Rates.TryGetValue(workflow, out var rate) ? rate : null;

    /// <summary>How current a service's answers are; <see cref="DownstreamStatus.Expired"/> for an unknown service.</summary>
    public DownstreamStatus Status(string service, long now) =>
        _services.TryGetValue(service, out var state) ? Classify(state, now) : DownstreamStatus.Expired;

    /// <summary>σ′ of a workflow: +∞ when no service it calls has a usable answer.</summary>
    public double Aggregate(WorkflowModel workflowModel, long now)
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
                result = Math.Min(result, RateAggregation.Quantile(_values.AsSpan(0, n), options.Quantile));
            }
        }

        return result;
    }

    /// <summary>Records every service's status on the downstream-status gauge, when it is listened to.</summary>
    public void RecordStatuses(long now)
    {
        if (!CiceroInstruments.DownstreamStatus.Enabled)
        {
            return;
        }

        foreach (var (name, service) in _services)
        {
            CiceroInstruments.DownstreamStatus.Record(
                (int)Classify(service, now), new KeyValuePair<string, object?>(CiceroTelemetry.ServiceTag, name));
        }
    }

    private DownstreamInstanceState? Find(DownstreamInstance instance) =>
        _services.TryGetValue(instance.Service, out var service) ? service.Find(instance.Instance) : null;

    private bool IsUsable(DownstreamInstanceState instance, long now) =>
        instance.LastAnswer != long.MinValue && now - instance.LastAnswer <= holdTicks;

    private DownstreamStatus Classify(DownstreamService service, long now)
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
                if (now - instance.LastAnswer <= freshTicks)
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
}
