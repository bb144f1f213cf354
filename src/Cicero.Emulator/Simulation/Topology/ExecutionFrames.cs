// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Resources;

namespace Cicero.Emulator.Simulation.Topology;

/// <summary>Receives the end of a step (and the progress its remote calls accrued).</summary>
internal interface IStepParent
{
    void OnStepDone(Outcome outcome);

    void OnChildProgress(ProgressDelta progress);
}

/// <summary>Receives the end of a handler: the entry of a request, or the RPC that started it.</summary>
internal interface IHandlerParent
{
    void OnHandlerDone(Handler handler, Outcome outcome);
}

/// <summary>
/// A frame that waits for resource permits. Core's <see cref="ResourceSemaphore"/> returns a
/// <see cref="ValueTask{TResult}"/>; with inline continuations and <c>ConfigureAwait(false)</c> its completion runs
/// synchronously inside the clock callback that released the permit, so no thread or async state machine is involved.
/// </summary>
internal abstract class LeaseFrame
{
    private ValueTask<SubtaskLease> _pending;
    private Action? _onReady;
    private long _requestedAt;

    /// <summary>Gets how long the last acquisition waited, in ticks (0 when the permit was free); set before <see cref="OnLease"/>.</summary>
    protected long LastWaitTicks { get; private set; }

    protected abstract TopologySimulation Simulation { get; }

    protected void Acquire(ResourceSemaphore resource, RequestContext context, double cost)
    {
        var acquire = resource.AcquireAsync(context, cost);
        if (acquire.IsCompleted)
        {
            LastWaitTicks = 0;
            OnLease(acquire.GetAwaiter().GetResult());
            return;
        }

        _requestedAt = Simulation.Now;
        _pending = acquire;
        acquire.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(_onReady ??= Ready);
    }

    protected abstract void OnLease(SubtaskLease lease);

    private void Ready()
    {
        var pending = _pending;
        _pending = default;
        LastWaitTicks = Simulation.Now - _requestedAt;
        OnLease(pending.GetAwaiter().GetResult());
    }
}

/// <summary>
/// One request handled at one instance: hold a thread (if the service has a pool), run the body, reply. An inline
/// handler (the local fast path) runs on its caller's request thread: it takes no thread and its use stages do not
/// queue for the resource, as Wu's synchronous local read skips Cassandra's read stage.
/// </summary>
internal sealed class Handler : LeaseFrame, IStepParent
{
    private readonly PlanStep[] _body;
    private readonly IHandlerParent _parent;
    private readonly string? _caller;
    private readonly bool _isEntry;
    private SubtaskLease _thread;
    private long _threadAt;
    private int _next;
    private ValueTask<AdmissionResult> _pendingHop;

    public Handler(SimInstance instance, SimRequest request, RequestContext context, PlanStep[] body, IHandlerParent parent, string? caller, bool isEntry, bool inline = false)
    {
        Inline = inline;
        Instance = instance;
        Request = request;
        Context = context;
        _body = body;
        _parent = parent;
        _caller = caller;
        _isEntry = isEntry;
    }

    public SimInstance Instance { get; }

    public SimRequest Request { get; }

    public RequestContext Context { get; }

    public long ArrivedAt { get; private set; }

    /// <summary>Gets a value indicating whether the handler runs on its caller's thread, bypassing resource queues.</summary>
    public bool Inline { get; }

    /// <summary>Gets or sets the ticks this handler's sub-tasks spent waiting for permits here (the server's queueing time).</summary>
    public long WaitTicks { get; set; }

    protected override TopologySimulation Simulation => Instance.Simulation;

    public void Start()
    {
        ArrivedAt = Instance.Simulation.Now;
        if (!_isEntry)
        {
            // Cicero.Grpc's server interceptor admits a hop through this same call (decision 0022). The simulator still
            // counts interior hops: its reproductions of the dissertation (5.3.1 G, 5.3.5, Table 5.4) and the overload-hold
            // test are pinned to that until they are re-measured under LocalFairShare, the library's default.
            var hop = Instance.Admission.AdmitHopAsync(Context, _caller, isEntry: false, InteriorAdmission.Count, queue: true, now: null, CancellationToken.None);
            if (!hop.IsCompleted)
            {
                _pendingHop = hop;
                hop.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(OnHopReady);
                return;
            }

            if (hop.GetAwaiter().GetResult() is { IsAdmitted: false } refused)
            {
                Done(Outcome.Dropped(refused.Reason));
                return;
            }
        }

        Serve();
    }

    private void OnHopReady()
    {
        var pending = _pendingHop;
        _pendingHop = default;
        if (pending.GetAwaiter().GetResult() is { IsAdmitted: false } refused)
        {
            Done(Outcome.Dropped(refused.Reason));
            return;
        }

        Serve();
    }

    private void Serve()
    {
        var pool = Instance.Service.ThreadPool;
        if (pool >= 0 && !Inline)
        {
            Acquire(Instance.Resources[pool], Context, 1);
        }
        else
        {
            RunNext();
        }
    }

    public void OnStepDone(Outcome outcome)
    {
        if (outcome.IsOk)
        {
            RunNext();
        }
        else
        {
            Done(outcome);
        }
    }

    public void OnChildProgress(ProgressDelta progress) => Context.Progress.AddSequential(progress);

    protected override void OnLease(SubtaskLease lease)
    {
        if (!lease.IsAcquired)
        {
            Done(Outcome.Dropped(lease.RejectionReason));
            return;
        }

        _thread = lease;
        _threadAt = Instance.Simulation.Now;
        WaitTicks += LastWaitTicks;
        RunNext();
    }

    private void RunNext()
    {
        if (_next == _body.Length)
        {
            Done(Outcome.Ok);
            return;
        }

        _body[_next++].Start(this, this);
    }

    private void Done(Outcome outcome)
    {
        if (_thread.IsAcquired)
        {
            Instance.Release(Instance.Service.ThreadPool, _thread, _threadAt);
            _thread = default;
        }

        if (outcome.IsOk)
        {
            Instance.CompleteRequest(Context, ArrivedAt, _isEntry);
        }

        _parent.OnHandlerDone(this, outcome);
    }
}

/// <summary>A list of steps run in order within a handler (a branch of a parallel stage).</summary>
internal sealed class Sequence(Handler handler, PlanStep[] steps, IStepParent parent) : IStepParent
{
    private int _next;

    public void Run()
    {
        if (_next == steps.Length)
        {
            parent.OnStepDone(Outcome.Ok);
            return;
        }

        steps[_next++].Start(handler, this);
    }

    public void OnStepDone(Outcome outcome)
    {
        if (outcome.IsOk)
        {
            Run();
        }
        else
        {
            parent.OnStepDone(outcome);
        }
    }

    public void OnChildProgress(ProgressDelta progress) => parent.OnChildProgress(progress);
}

/// <summary>
/// Waits for all of its children, like <c>Task.WhenAll</c>; the first failure is the outcome. Service time joins as a
/// parallel-divide metric (Σb/p) and load as a sum (DESIGN.md §4).
/// </summary>
internal sealed class Join(IStepParent parent, int count) : IStepParent
{
    private readonly int _count = count;
    private int _remaining = count;
    private Outcome _failure = Outcome.Ok;
    private double _serviceTime;
    private double _load;

    public void OnStepDone(Outcome outcome)
    {
        if (!outcome.IsOk && _failure.IsOk)
        {
            _failure = outcome;
        }

        if (--_remaining == 0)
        {
            parent.OnChildProgress(new ProgressDelta(_serviceTime / _count, _load));
            parent.OnStepDone(_failure);
        }
    }

    public void OnChildProgress(ProgressDelta progress)
    {
        _serviceTime += progress.ServiceTime;
        _load += progress.Load;
    }
}

/// <summary>
/// Holds a disk or compute resource for a sampled service time, scaled by the instance's background factor. An inline
/// handler's stage takes no permit: it runs on the request's own thread.
/// </summary>
internal sealed class UseFrame(Handler handler, UseStep step, IStepParent parent) : LeaseFrame
{
    private static readonly Action<object?> OnRelease = static state => ((UseFrame)state!).Release();
    private SubtaskLease _lease;
    private long _acquiredAt;

    protected override TopologySimulation Simulation => handler.Instance.Simulation;

    public void Start()
    {
        if (handler.Inline)
        {
            Serve();
            return;
        }

        var traced = TracedTicks();
        Acquire(handler.Instance.Resources[step.Resource], handler.Context, traced > 0 ? (double)traced / TimeSpan.TicksPerSecond : step.ServiceTime.MeanSeconds);
    }

    protected override void OnLease(SubtaskLease lease)
    {
        if (!lease.IsAcquired)
        {
            parent.OnStepDone(Outcome.Dropped(lease.RejectionReason));
            return;
        }

        _lease = lease;
        handler.WaitTicks += LastWaitTicks;
        Serve();
    }

    private void Serve()
    {
        var simulation = handler.Instance.Simulation;
        _acquiredAt = simulation.Now;
        var traced = TracedTicks();
        var ticks = traced > 0 ? traced : simulation.SampleTicks(step.ServiceTime);
        var factor = handler.Instance.ServiceTimeFactor;
        if (factor != 1)
        {
            ticks = Math.Max(1, (long)Math.Round(ticks * factor));
        }

        simulation.Clock.ScheduleAt(_acquiredAt + ticks, OnRelease, this);
    }

    /// <summary>
    /// A replayed trace request's own service time for this stage (Auth <c>cpu</c>, PS <c>compute</c>, BS <c>disk</c>),
    /// in ticks, or 0 to sample the plan's distribution.
    /// </summary>
    private long TracedTicks()
    {
        if (handler.Request.Trace is not { } trace)
        {
            return 0;
        }

        var ms = handler.Instance.Service.Resources[step.Resource].Name switch
        {
            "cpu" => trace.Costs.AuthMs,
            "compute" => trace.Costs.PsMs,
            "disk" => trace.Costs.BsMs,
            _ => 0,
        };
        return ms > 0 ? Math.Max(1, (long)Math.Round(ms * TimeSpan.TicksPerMillisecond)) : 0;
    }

    private void Release()
    {
        if (_lease.IsAcquired)
        {
            handler.Instance.Release(step.Resource, _lease, _acquiredAt);
            _lease = default;
        }

        parent.OnStepDone(Outcome.Ok);
    }
}

/// <summary>A request arriving at an entry instance: admission, then the workflow's plan, then the client's outcome.</summary>
internal sealed class EntryFrame(SimInstance instance, SimRequest request) : IHandlerParent
{
    private ValueTask<AdmissionResult> _pending;

    public void Start()
    {
        var workflow = request.Workflow;
        var deadline = request.DeadlineMs ?? workflow.DeadlineMs ?? instance.Simulation.DefaultDeadlineMs;
        var context = instance.StartRequest(workflow.Id, deadline is { } ms ? TimeSpan.FromMilliseconds(ms) : null);
        if (request.Estimate is { } estimate)
        {
            context = context.WithEstimatedTotal(estimate);
        }

        request.Context = context;
        var admit = instance.Admission.AdmitHopAsync(context, caller: null, isEntry: true, AdmissionController.DefaultInteriorAdmission, queue: true, now: null, CancellationToken.None);
        if (admit.IsCompleted)
        {
            OnAdmission(admit.GetAwaiter().GetResult());
            return;
        }

        _pending = admit;
        admit.ConfigureAwait(false).GetAwaiter().UnsafeOnCompleted(Ready);
    }

    public void OnHandlerDone(Handler handler, Outcome outcome) => instance.Simulation.Finish(request, outcome);

    private void Ready()
    {
        var pending = _pending;
        _pending = default;
        OnAdmission(pending.GetAwaiter().GetResult());
    }

    private void OnAdmission(AdmissionResult result)
    {
        if (!result.IsAdmitted)
        {
            instance.Simulation.Finish(request, Outcome.Dropped(result.Reason));
            return;
        }

        instance.Simulation.RecordAdmitted(request);
        request.AdmittedBy = instance;
        request.AdmittedAt = instance.Runtime.TimeProvider.GetTimestamp();
        new Handler(instance, request, request.Context!, request.Workflow.Body, this, caller: null, isEntry: true).Start();
    }
}
