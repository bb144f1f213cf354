// SPDX-License-Identifier: Apache-2.0

using System.ComponentModel.DataAnnotations;
using System.Diagnostics.CodeAnalysis;
using Cicero.Admission;
using Cicero.Grpc.Resilience;
using Cicero.Runtime;
using Polly.Timeout;

namespace Polly;

/// <summary>
/// Adds Cicero's admission and deadline timeout strategies to <see cref="ResiliencePipelineBuilder"/> and
/// <see cref="ResiliencePipelineBuilder{TResult}"/>.
/// </summary>
public static class CiceroResiliencePipelineBuilderExtensions
{
    /// <summary>Adds admission through the runtime's <see cref="CiceroRuntime.Admission"/> controller.</summary>
    /// <typeparam name="TBuilder">The builder type.</typeparam>
    /// <param name="builder">The builder.</param>
    /// <param name="runtime">The process's Cicero runtime.</param>
    /// <param name="options">The options; defaults when <see langword="null"/>.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> or <paramref name="runtime"/> is <see langword="null"/>.</exception>
    /// <exception cref="ValidationException"><paramref name="options"/> are invalid.</exception>
    public static TBuilder AddCiceroAdmission<TBuilder>(this TBuilder builder, CiceroRuntime runtime, CiceroAdmissionStrategyOptions? options = null)
        where TBuilder : ResiliencePipelineBuilderBase
    {
        ArgumentNullException.ThrowIfNull(runtime);
        return builder.AddCiceroAdmission(runtime.Admission, options);
    }

    /// <summary>
    /// Adds admission: each execution's request is admitted by <paramref name="controller"/> before the operation runs,
    /// waiting in its workflow's bounded queue if the controller allows. A rejection returns an
    /// <see cref="AdmissionRejectedException"/> and never runs the operation.
    /// </summary>
    /// <typeparam name="TBuilder">The builder type.</typeparam>
    /// <param name="builder">The builder.</param>
    /// <param name="controller">The admission controller.</param>
    /// <param name="options">The options; defaults when <see langword="null"/>.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> or <paramref name="controller"/> is <see langword="null"/>.</exception>
    /// <exception cref="ValidationException"><paramref name="options"/> are invalid.</exception>
    /// <remarks>
    /// Cancelling <see cref="ResilienceContext.CancellationToken"/> while the request waits ends the execution with an
    /// <see cref="OperationCanceledException"/>. Executions without a request context follow
    /// <see cref="CiceroAdmissionStrategyOptions.MissingContext"/>.
    /// </remarks>
    [DynamicDependency(DynamicallyAccessedMemberTypes.All, typeof(CiceroAdmissionStrategyOptions))]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "All options members are preserved.")]
    public static TBuilder AddCiceroAdmission<TBuilder>(this TBuilder builder, AdmissionController controller, CiceroAdmissionStrategyOptions? options = null)
        where TBuilder : ResiliencePipelineBuilderBase
    {
        ArgumentNullException.ThrowIfNull(builder);
        ArgumentNullException.ThrowIfNull(controller);
        options ??= new CiceroAdmissionStrategyOptions();
        return builder.AddStrategy(context => new AdmissionResilienceStrategy(controller, options, context.Telemetry), options);
    }

    /// <summary>
    /// Adds a timeout of the request's remaining deadline budget, built on Polly's timeout strategy: an execution whose
    /// budget is already spent is rejected at once with <see cref="TimeoutRejectedException"/> without running, and one
    /// with budget left is cancelled, and rejected with that exception, when the budget runs out.
    /// </summary>
    /// <typeparam name="TBuilder">The builder type.</typeparam>
    /// <param name="builder">The builder.</param>
    /// <param name="options">The options; defaults (no timeout without a deadline) when <see langword="null"/>.</param>
    /// <returns>The builder.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="builder"/> is <see langword="null"/>.</exception>
    /// <exception cref="ValidationException"><paramref name="options"/> are invalid.</exception>
    /// <remarks>
    /// The budget is read from the pipeline's <see cref="ResiliencePipelineBuilderBase.TimeProvider"/>, which must be the
    /// clock that stamped the request contexts. Three strategies are added, all named
    /// <see cref="ResilienceStrategyOptions.Name"/>: the spent-budget check, Polly's timeout, and inside it one that makes
    /// grpc-dotnet's <c>RpcException(Cancelled)</c> of a call the timeout cancelled an <see cref="OperationCanceledException"/>,
    /// so the timeout is recognised (<see cref="TimeoutRejectedException"/>) on any channel. Building pipelines
    /// with different time providers from one builder that holds this strategy throws
    /// <see cref="InvalidOperationException"/>.
    /// </remarks>
    [DynamicDependency(DynamicallyAccessedMemberTypes.All, typeof(CiceroDeadlineTimeoutStrategyOptions))]
    [UnconditionalSuppressMessage("Trimming", "IL2026", Justification = "All options members are preserved.")]
    public static TBuilder AddCiceroDeadlineTimeout<TBuilder>(this TBuilder builder, CiceroDeadlineTimeoutStrategyOptions? options = null)
        where TBuilder : ResiliencePipelineBuilderBase
    {
        ArgumentNullException.ThrowIfNull(builder);
        options ??= new CiceroDeadlineTimeoutStrategyOptions();

        // Both strategies take their settings now, since Polly's timeout options below are fixed now too.
        var budget = new DeadlineBudget(options);
        var onTimeout = options.OnTimeout;
        builder.AddStrategy(
            context =>
            {
                budget.Bind(context.TimeProvider);
                return new DeadlineBudgetResilienceStrategy(budget, onTimeout, context.Telemetry);
            },
            options);
        builder.AddTimeout(new TimeoutStrategyOptions
        {
            Name = options.Name,
            TimeoutGenerator = budget.GenerateTimeout,
            OnTimeout = onTimeout,
        });

        // A gRPC call cancelled by the timeout ends in RpcException(Cancelled), which Polly's timeout does not
        // recognise as its own: the strategy inside it makes it an OperationCanceledException.
        return builder.AddStrategy(static _ => new GrpcCancellationResilienceStrategy(), options);
    }
}
