// SPDX-License-Identifier: Apache-2.0

using System.Threading.Tasks.Sources;

namespace Cicero.Resources;

public sealed partial class ResourceSemaphore
{
    private enum WaiterState
    {
        Idle,
        Queued,
        Granted,
        Cancelled,
    }

    /// <summary>A pooled wait node: the awaitable behind a queued <see cref="AcquireAsync"/>.</summary>
    private sealed class Waiter : IValueTaskSource<SubtaskLease>
    {
        private readonly ResourceSemaphore _owner;
        private ManualResetValueTaskSourceCore<SubtaskLease> _core;
        private CancellationToken _cancellationToken;
        private CancellationTokenRegistration _registration;

        public Waiter(ResourceSemaphore owner)
        {
            _owner = owner;
        }

        public WaiterState State { get; set; }

        public SubtaskTicket Ticket { get; set; }

        public short Version => _core.Version;

        public void Reset(bool runContinuationsAsynchronously, CancellationToken cancellationToken)
        {
            _core.Reset();
            _core.RunContinuationsAsynchronously = runContinuationsAsynchronously;
            _cancellationToken = cancellationToken;
            State = WaiterState.Queued;
        }

        public void RegisterCancellation()
        {
            if (_cancellationToken.CanBeCanceled)
            {
                // Registered after the ticket is queued: if the token is already cancelled the callback runs now and
                // removes the ticket; if the ticket was granted meanwhile, the callback finds it no longer queued.
                _registration = _cancellationToken.UnsafeRegister(static state => ((Waiter)state!).OnCancelled(), this);
            }
        }

        public void SetResult(SubtaskLease lease) => _core.SetResult(lease);

        public void SetCanceled() => _core.SetException(new OperationCanceledException(_cancellationToken));

        public SubtaskLease GetResult(short token)
        {
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
                State = WaiterState.Idle;
                Ticket = default;
                _owner.Return(this);
            }
        }

        public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            _core.OnCompleted(continuation, state, token, flags);

        private void OnCancelled() => _owner.Cancel(this);
    }
}
