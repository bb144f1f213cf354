// SPDX-License-Identifier: Apache-2.0

using Cicero.Measurement;

namespace Cicero.Resources;

/// <summary>Per-workflow accounting of one resource: load l and service times. Guarded by the resource's lock.</summary>
internal sealed class ResourceUsage
{
    private const int MaxTypedEntries = 4096;

    private readonly WorkflowUsage[] _byWorkflow;
    private readonly Dictionary<(int Workflow, int Type), Ewma> _byType = [];
    private readonly double _loadWeight;
    private readonly double _sampleWeight;
    private readonly long _frequency;
    private int _waitingTotal;
    private bool _queueEmptied = true;

    public ResourceUsage(int slots, long timestampFrequency, LocalModelOptions options)
    {
        _byWorkflow = new WorkflowUsage[slots];
        _frequency = timestampFrequency;
        _loadWeight = options.EwmaWeight;
        _sampleWeight = options.SampleEwmaWeight;
    }

    public double TotalLoad { get; private set; }

    /// <summary>Gets Σ demand over workflows: the offered load (arrivals × mean service time), in permits.</summary>
    public double TotalDemand { get; private set; }

    /// <summary>Gets how many intervals in a row, up to the last closed one, the wait queue never emptied.</summary>
    public int StandingQueueIntervals { get; private set; }

    /// <summary>Counts a sub-task that asked for a permit (granted, queued or refused alike): the demand's arrivals.</summary>
    public void AddArrival(int workflow)
    {
        MarkActive(workflow);
        _byWorkflow[workflow].Arrivals++;
    }

    public void AddBusy(int workflow, long ticks) => _byWorkflow[workflow].BusyTicks += ticks;

    /// <summary>Changes the number of the workflow's sub-tasks waiting, accruing the time the previous count lasted.</summary>
    public void ChangeWaiting(int workflow, int delta, long now)
    {
        MarkActive(workflow);
        ref var usage = ref _byWorkflow[workflow];
        usage.WaitingTicks += usage.Waiting * (now - usage.WaitingSince);
        usage.Waiting += delta;
        usage.WaitingSince = now;
        _waitingTotal += delta;
        if (_waitingTotal == 0)
        {
            _queueEmptied = true;
        }
    }

    public void AddServiceSample(int workflow, int subtaskType, long ticks)
    {
        var seconds = (double)ticks / _frequency;
        ref var usage = ref _byWorkflow[workflow];
        if (!usage.Active)
        {
            usage = NewUsage();
        }

        usage.ServiceTime.Update(seconds);
        // Sub-task types come from callers; past a bound, new ones are folded into the workflow's overall average.
        if (subtaskType != 0 && (_byType.Count < MaxTypedEntries || _byType.ContainsKey((workflow, subtaskType))))
        {
            var key = (workflow, subtaskType);
            var average = _byType.TryGetValue(key, out var existing) ? existing : new Ewma(_sampleWeight);
            average.Update(seconds);
            _byType[key] = average;
        }
    }

    public void MarkActive(int workflow)
    {
        ref var usage = ref _byWorkflow[workflow];
        if (!usage.Active)
        {
            usage = NewUsage();
        }
    }

    public double GetLoad(int workflow) => _byWorkflow[workflow].Load.Value;

    public double GetBusy(int workflow) => _byWorkflow[workflow].Busy.Value;

    public double GetDemand(int workflow) => _byWorkflow[workflow].Demand.Value;

    public TimeSpan? GetServiceTime(int workflow, int subtaskType)
    {
        if (subtaskType != 0)
        {
            return _byType.TryGetValue((workflow, subtaskType), out var average) && average.HasValue
                ? TimeSpan.FromSeconds(average.Value)
                : null;
        }

        ref var usage = ref _byWorkflow[workflow];
        return usage.ServiceTime.HasValue ? TimeSpan.FromSeconds(usage.ServiceTime.Value) : null;
    }

    public void CloseInterval(double seconds, int workflowCount, long now)
    {
        double total = 0;
        double demand = 0;
        for (var i = 0; i < workflowCount && i < _byWorkflow.Length; i++)
        {
            ref var usage = ref _byWorkflow[i];
            if (!usage.Active)
            {
                continue;
            }

            // Load is the demand on the resource: permits held plus sub-tasks waiting, averaged over the interval, so a
            // saturated resource shows Σ load > capacity (a permit count alone can never exceed it).
            usage.WaitingTicks += usage.Waiting * (now - usage.WaitingSince);
            usage.WaitingSince = now;
            usage.Busy.Update((double)usage.BusyTicks / _frequency / seconds);
            var load = (double)(usage.BusyTicks + usage.WaitingTicks) / _frequency / seconds;
            usage.Load.Update(load);

            // Offered load, Little's law on the arrivals: it exceeds the capacity only when work arrives faster than
            // the resource can serve it, unlike held + waiting, which a healthy but busy resource with few permits
            // also pushes past the capacity whenever arrivals bunch. Before any service time is known, held + waiting.
            usage.Demand.Update(usage.ServiceTime.HasValue ? usage.Arrivals / seconds * usage.ServiceTime.Value : load);
            usage.BusyTicks = 0;
            usage.WaitingTicks = 0;
            usage.Arrivals = 0;
            total += usage.Load.Value;
            demand += usage.Demand.Value;
        }

        TotalLoad = total;
        TotalDemand = demand;
        StandingQueueIntervals = _queueEmptied || _waitingTotal == 0 ? 0 : StandingQueueIntervals + 1;
        _queueEmptied = _waitingTotal == 0;
    }

    private WorkflowUsage NewUsage() => new()
    {
        Active = true,
        Load = new Ewma(_loadWeight),
        Busy = new Ewma(_loadWeight),
        Demand = new Ewma(_loadWeight),
        ServiceTime = new Ewma(_sampleWeight),
    };

    private struct WorkflowUsage
    {
        public bool Active;
        public long BusyTicks;
        public long WaitingTicks;
        public long WaitingSince;
        public int Waiting;
        public long Arrivals;
        public Ewma Load;
        public Ewma Demand;
        public Ewma Busy;
        public Ewma ServiceTime;
    }
}
