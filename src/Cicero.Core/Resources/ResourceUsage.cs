// SPDX-License-Identifier: Apache-2.0

using Cicero.Model;

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

    public ResourceUsage(int slots, long timestampFrequency, LocalModelOptions options)
    {
        _byWorkflow = new WorkflowUsage[slots];
        _frequency = timestampFrequency;
        _loadWeight = options.EwmaWeight;
        _sampleWeight = options.SampleEwmaWeight;
    }

    public double TotalLoad { get; private set; }

    public void AddBusy(int workflow, long ticks) => _byWorkflow[workflow].BusyTicks += ticks;

    /// <summary>Changes the number of the workflow's sub-tasks waiting, accruing the time the previous count lasted.</summary>
    public void ChangeWaiting(int workflow, int delta, long now)
    {
        MarkActive(workflow);
        ref var usage = ref _byWorkflow[workflow];
        usage.WaitingTicks += usage.Waiting * (now - usage.WaitingSince);
        usage.Waiting += delta;
        usage.WaitingSince = now;
    }

    public void AddServiceSample(int workflow, int subtaskType, long ticks)
    {
        var seconds = (double)ticks / _frequency;
        ref var usage = ref _byWorkflow[workflow];
        if (!usage.Active)
        {
            usage = new WorkflowUsage { Active = true, Load = new Ewma(_loadWeight), Busy = new Ewma(_loadWeight), ServiceTime = new Ewma(_sampleWeight) };
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
            usage = new WorkflowUsage { Active = true, Load = new Ewma(_loadWeight), Busy = new Ewma(_loadWeight), ServiceTime = new Ewma(_sampleWeight) };
        }
    }

    public double GetLoad(int workflow) => _byWorkflow[workflow].Load.Value;

    public double GetBusy(int workflow) => _byWorkflow[workflow].Busy.Value;

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
            usage.Load.Update((double)(usage.BusyTicks + usage.WaitingTicks) / _frequency / seconds);
            usage.BusyTicks = 0;
            usage.WaitingTicks = 0;
            total += usage.Load.Value;
        }

        TotalLoad = total;
    }

    private struct WorkflowUsage
    {
        public bool Active;
        public long BusyTicks;
        public long WaitingTicks;
        public long WaitingSince;
        public int Waiting;
        public Ewma Load;
        public Ewma Busy;
        public Ewma ServiceTime;
    }
}
