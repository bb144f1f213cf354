// SPDX-License-Identifier: Apache-2.0

using System.Threading.Tasks.Sources;

namespace Cicero.Internal;

/// <summary>Receives the events of the <see cref="WaitNode{T, TPayload}"/> nodes an engine pools.</summary>
internal interface IWaitNodeOwner<T, TPayload>
{
    /// <summary>The waiter's token was cancelled; remove it if it is still queued, then call <see cref="WaitNode{T, TPayload}.SetCanceled"/>.</summary>
    void OnCancelled(WaitNode<T, TPayload> node);

    /// <summary>The waiter's result was consumed; the node may be pooled.</summary>
    void Return(WaitNode<T, TPayload> node);
}

/// <summary>
/// A pooled awaitable for one queued wait: the engine completes it outside its lock and takes it back once the awaiter
/// has read the result.
/// </summary>
internal sealed class WaitNode<T, TPayload> : IValueTaskSource<T>
{
    private readonly IWaitNodeOwner<T, TPayload> _owner;
    private ManualResetValueTaskSourceCore<T> _core;
    private CancellationToken _cancellationToken;
    private CancellationTokenRegistration _registration;
    private int _consumed;

    public WaitNode(IWaitNodeOwner<T, TPayload> owner)
    {
        _owner = owner;
    }

    /// <summary>Gets or sets a value indicating whether the node waits in its engine's queue; guarded by the engine's lock.</summary>
    public bool IsQueued { get; set; }

    /// <summary>Gets or sets the engine's data about the wait (a ticket, a request); guarded by the engine's lock.</summary>
    public TPayload? Payload { get; set; }

    /// <summary>Gets or sets an engine-defined number, such as the queue a node waits in.</summary>
    public int Tag { get; set; }

    public short Version => _core.Version;

    public ValueTask<T> AsValueTask() => new(this, _core.Version);

    public void Reset(bool runContinuationsAsynchronously, CancellationToken cancellationToken)
    {
        _core.Reset();
        _core.RunContinuationsAsynchronously = runContinuationsAsynchronously;
        _cancellationToken = cancellationToken;
        _consumed = 0;
        IsQueued = true;
    }

    /// <summary>Registers for cancellation; call after the node is queued and outside the engine's lock.</summary>
    public void RegisterCancellation()
    {
        if (_cancellationToken.CanBeCanceled)
        {
            // If the token is already cancelled the callback runs now and dequeues the node; if the node was granted
            // meanwhile, the owner finds it no longer queued and ignores the callback.
            _registration = _cancellationToken.UnsafeRegister(static state => ((WaitNode<T, TPayload>)state!).Cancel(), this);
        }
    }

    public void SetResult(T result) => _core.SetResult(result);

    public void SetCanceled() => _core.SetException(new OperationCanceledException(_cancellationToken));

    public void SetException(Exception error) => _core.SetException(error);

    public T GetResult(short token)
    {
        // Reading the result twice would return the node to the pool twice and hand it to two later waiters.
        if (token != _core.Version || Interlocked.Exchange(ref _consumed, 1) != 0)
        {
            throw new InvalidOperationException("A Cicero wait was awaited more than once; a ValueTask may be consumed only once.");
        }

        try
        {
            return _core.GetResult(token);
        }
        finally
        {
            // Dispose waits for a running cancellation callback, so the node is quiet before it is reused.
            _registration.Dispose();
            _registration = default;
            _cancellationToken = default;
            Payload = default;
            _owner.Return(this);
        }
    }

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);

    private void Cancel() => _owner.OnCancelled(this);
}
