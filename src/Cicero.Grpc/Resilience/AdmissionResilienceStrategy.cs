// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Polly;
using Polly.Telemetry;

namespace Cicero.Grpc.Resilience;

/// <summary>Admits each execution's request through an <see cref="AdmissionController"/> before running it.</summary>
/// <remarks>
/// An admission that completes at once (the usual case) costs no allocation here: the operation's own
/// <see cref="ValueTask{TResult}"/> is returned as is. Only a queued wait or a rejection goes through an async method.
/// </remarks>
internal sealed class AdmissionResilienceStrategy : ResilienceStrategy
{
    private readonly AdmissionController _controller;
    private readonly ResilienceStrategyTelemetry _telemetry;
    private readonly Func<OnAdmissionRejectedArguments, ValueTask>? _onRejected;
    private readonly Func<ResilienceContext, RequestContext?>? _selector;
    private readonly MissingContextBehavior _missingContext;

    public AdmissionResilienceStrategy(AdmissionController controller, CiceroAdmissionStrategyOptions options, ResilienceStrategyTelemetry telemetry)
    {
        _controller = controller;
        _telemetry = telemetry;
        _onRejected = options.OnRejected;
        _selector = options.RequestContextSelector;
        _missingContext = options.MissingContext;
    }

    protected override ValueTask<Outcome<TResult>> ExecuteCore<TResult, TState>(
        Func<ResilienceContext, TState, ValueTask<Outcome<TResult>>> callback,
        ResilienceContext context,
        TState state)
    {
        var request = RequestContextResolver.Resolve(context, _selector);
        if (request is null)
        {
            return _missingContext == MissingContextBehavior.PassThrough
                ? callback(context, state)
                : RejectAsync<TResult>(context, null, DropReason.Policy);
        }

        context.Properties.TryGetValue(CiceroResilienceKeys.Caller, out var caller);
        var admission = _controller.AdmitAsync(request, caller, context.CancellationToken);
        if (!admission.IsCompletedSuccessfully)
        {
            return AwaitAdmissionAsync(admission, callback, context, state, request);
        }

        var result = admission.Result;
        return result.IsAdmitted ? callback(context, state) : RejectAsync<TResult>(context, request, result.Reason);
    }

    private async ValueTask<Outcome<TResult>> AwaitAdmissionAsync<TResult, TState>(
        ValueTask<AdmissionResult> admission,
        Func<ResilienceContext, TState, ValueTask<Outcome<TResult>>> callback,
        ResilienceContext context,
        TState state,
        RequestContext request)
    {
        AdmissionResult result;
        try
        {
            result = await admission.ConfigureAwait(context.ContinueOnCapturedContext);
        }
        catch (OperationCanceledException e)
        {
            // The caller gave up while queued: an outcome, not a rejection, and the operation never ran.
            return Outcome.FromException<TResult>(e);
        }
        catch (ObjectDisposedException e)
        {
            return Outcome.FromException<TResult>(e);
        }

        return result.IsAdmitted
            ? await callback(context, state).ConfigureAwait(context.ContinueOnCapturedContext)
            : await RejectAsync<TResult>(context, request, result.Reason).ConfigureAwait(context.ContinueOnCapturedContext);
    }

    private async ValueTask<Outcome<TResult>> RejectAsync<TResult>(ResilienceContext context, RequestContext? request, DropReason reason)
    {
        var args = new OnAdmissionRejectedArguments(context, request, reason);
        _telemetry.Report(new ResilienceEvent(ResilienceEventSeverity.Error, CiceroAdmissionConstants.OnRejectedEvent), context, args);
        if (_onRejected is not null)
        {
            await _onRejected(args).ConfigureAwait(context.ContinueOnCapturedContext);
        }

        // No stack trace is captured here (Polly's rejections do): under overload rejections are the hot path, and
        // ExecuteAsync gives the exception a trace when it rethrows it.
        var exception = new AdmissionRejectedException(reason, request?.Workflow ?? default);
        _telemetry.SetTelemetrySource(exception);
        return Outcome.FromException<TResult>(exception);
    }
}
