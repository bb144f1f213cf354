// SPDX-License-Identifier: Apache-2.0

using Grpc.Core;
using Polly;

namespace Cicero.Grpc.Resilience;

/// <summary>
/// Sits just inside Polly's timeout strategy and turns grpc-dotnet's answer to a cancelled call,
/// <c>RpcException(Cancelled)</c>, into the <see cref="OperationCanceledException"/> Polly expects, when the
/// execution's token was cancelled. grpc-dotnet throws the former unless the channel sets
/// <c>ThrowOperationCanceledOnCancellation</c>, so without this a timeout of the request's budget reached the caller as
/// <c>CANCELLED "Call canceled by the client."</c>, which it never did, instead of Polly's
/// <see cref="Polly.Timeout.TimeoutRejectedException"/> (mapped to <c>DEADLINE_EXCEEDED</c>). A <c>Cancelled</c>
/// status with the token not cancelled (the callee cancelled) passes through unchanged.
/// </summary>
internal sealed class GrpcCancellationResilienceStrategy : ResilienceStrategy
{
    protected override async ValueTask<Outcome<TResult>> ExecuteCore<TResult, TState>(
        Func<ResilienceContext, TState, ValueTask<Outcome<TResult>>> callback,
        ResilienceContext context,
        TState state)
    {
        var outcome = await callback(context, state).ConfigureAwait(context.ContinueOnCapturedContext);
        return outcome.Exception is RpcException { StatusCode: StatusCode.Cancelled } cancelled && context.CancellationToken.IsCancellationRequested
            ? Outcome.FromException<TResult>(new OperationCanceledException(cancelled.Status.Detail, cancelled, context.CancellationToken))
            : outcome;
    }
}
