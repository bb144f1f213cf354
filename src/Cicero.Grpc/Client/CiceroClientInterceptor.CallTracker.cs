// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Grpc.Context;
using Cicero.Grpc.LoadBalancing;
using Grpc.Core;

namespace Cicero.Grpc.Client;

/// <summary>The interceptor's per-call state: how a call's end reaches the request's progress and the balancer.</summary>
public sealed partial class CiceroClientInterceptor
{
    /// <summary>
    /// One call's accounting, finished exactly once however the call ends: the request's progress and amplification
    /// when the call was made inside a Cicero request, and the balancer's feedback when a Cicero policy picked its
    /// replica (as the <see cref="OutgoingCall"/> slot the picker binds to). It is also the state of the wrapping call.
    /// </summary>
    private sealed class CallTracker(CiceroClientInterceptor owner, RequestContext? current) : OutgoingCall
    {
        private readonly ParallelCalls? _scope = current is null ? null : ParallelCalls.Current;
        private int _done;

        private Func<object, Status>? _getStatus;
        private Func<object, Metadata>? _getTrailers;

        /// <summary>Gets the wrapped call, the state of the wrapper's delegates.</summary>
        public IDisposable? Call { get; private set; }

        /// <summary>The wrapper's status delegate: one for every call, reading through the state.</summary>
        public static Status StatusOf(object state) => ((CallTracker)state)._getStatus!(((CallTracker)state).Call!);

        /// <summary>The wrapper's trailers delegate.</summary>
        public static Metadata TrailersOf(object state) => ((CallTracker)state)._getTrailers!(((CallTracker)state).Call!);

        /// <summary>Keeps the call and how to read its end (cached, non-capturing delegates).</summary>
        public void Wrap(IDisposable call, Func<object, Status> getStatus, Func<object, Metadata> getTrailers)
        {
            Call = call;
            _getStatus = getStatus;
            _getTrailers = getTrailers;
        }

        /// <summary>
        /// Gets a value indicating whether the call must be wrapped: inside a request, or on a channel a Cicero policy
        /// balances (its pick may come after the call object is returned, e.g. on a cold channel). Once a call
        /// succeeded without any Cicero pick, the channel is known to have no Cicero balancer, and calls outside a
        /// request pass through with no tracking at all.
        /// </summary>
        public bool IsNeeded
        {
            get
            {
                if (current is not null || IsBound || !owner._unbalanced)
                {
                    return true;
                }

                Abandon();
                return false;
            }
        }

        /// <summary>Opens this call's slot for a Cicero picker, unless the channel is known to have no Cicero balancer.</summary>
        public OutgoingCall? Enter() => owner._unbalanced ? Current : Enter(this);

        /// <summary>Restores the slot <see cref="Enter()"/> replaced (nothing to do if it replaced none).</summary>
        public static void Leave(OutgoingCall? previous)
        {
            if (!ReferenceEquals(previous, Current))
            {
                Exit(previous);
            }
        }

        public void Dispose<TCall>()
            where TCall : IDisposable
        {
            ((TCall)Call!).Dispose();
            Complete(null, StatusCode.Cancelled);
        }

        public async Task<T> Track<T>(Task<T> response)
        {
            try
            {
                var result = await response.ConfigureAwait(false);
                CompleteFromCall();
                return result;
            }
            catch (RpcException ex)
            {
                Complete(ex.Trailers, ex.StatusCode);
                throw;
            }
            catch
            {
                Complete(null, StatusCode.Cancelled);
                throw;
            }
        }

        /// <summary>Finishes from a call that ended normally: its status and trailers are known.</summary>
        public void CompleteFromCall()
        {
            Metadata? trailers;
            StatusCode status;
            try
            {
                status = _getStatus!(Call!).StatusCode;
                trailers = _getTrailers!(Call!);
            }
            catch (InvalidOperationException)
            {
                status = StatusCode.Unknown;
                trailers = null;
            }

            Complete(trailers, status);
        }

        public void Complete(Metadata? trailers, StatusCode status)
        {
            if (Interlocked.Exchange(ref _done, 1) != 0)
            {
                return;
            }

            // The trailer is read and decoded once, for the request and the balancer: Metadata.Entry.ValueBytes copies on
            // every read.
            var result = DecodedResultTrailer.Decode(trailers?.Get(CiceroMetadataKeys.Result) is { IsBinary: true } entry ? entry.ValueBytes : null);
            if (status == StatusCode.OK && !IsBound)
            {
                owner._unbalanced = true;
            }

            Report(result, trailers is not null, status);
            if (current is not null)
            {
                owner.OnCompleted(current, _scope, result);
            }
        }
    }

    private sealed class TrackedReader<T>(IAsyncStreamReader<T> inner, CallTracker tracker) : IAsyncStreamReader<T>
    {
        public T Current => inner.Current;

        public async Task<bool> MoveNext(CancellationToken cancellationToken)
        {
            try
            {
                var more = await inner.MoveNext(cancellationToken).ConfigureAwait(false);
                if (!more)
                {
                    tracker.CompleteFromCall();
                }

                return more;
            }
            catch (RpcException ex)
            {
                tracker.Complete(ex.Trailers, ex.StatusCode);
                throw;
            }
        }
    }
}
