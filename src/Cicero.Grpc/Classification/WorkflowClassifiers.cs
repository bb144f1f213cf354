// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;
using Grpc.Core;

namespace Cicero.Grpc.Classification;

/// <summary>Built-in workflow classifiers for entry points.</summary>
public static class WorkflowClassifiers
{
    /// <summary>Classifies by the called service and method (<c>/pkg.Service/Method</c>): one workflow per API.</summary>
    /// <returns>The classifier.</returns>
    public static IWorkflowClassifier ByMethod() => new MethodClassifier();

    /// <summary>Classifies by a request header set by a trusted front (e.g. an API gateway's tenant header).</summary>
    /// <param name="header">The header's name.</param>
    /// <param name="fallback">The workflow when the header is missing, empty or not a valid workflow id.</param>
    /// <returns>The classifier.</returns>
    public static IWorkflowClassifier ByHeader(string header, string fallback = "anonymous")
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(header);
        return new HeaderClassifier(header.ToLowerInvariant(), new WorkflowId(fallback));
    }

    /// <summary>Classifies by the authenticated caller: the value of a claim, or the identity's name.</summary>
    /// <param name="claimType">The claim; the identity's name when <see langword="null"/>.</param>
    /// <param name="fallback">The workflow of unauthenticated callers.</param>
    /// <returns>The classifier.</returns>
    public static IWorkflowClassifier ByUser(string? claimType = null, string fallback = "anonymous") =>
        new UserClassifier(claimType, new WorkflowId(fallback));

    /// <summary>Classifies every request into one workflow.</summary>
    /// <param name="workflow">The workflow.</param>
    /// <returns>The classifier.</returns>
    public static IWorkflowClassifier Fixed(string workflow) => new FixedClassifier(new WorkflowId(workflow));

    /// <summary>Classifies with a function.</summary>
    /// <param name="classify">The function.</param>
    /// <returns>The classifier.</returns>
    public static IWorkflowClassifier FromDelegate(Func<ServerCallContext, WorkflowId> classify)
    {
        ArgumentNullException.ThrowIfNull(classify);
        return new DelegateClassifier(classify);
    }

    private static WorkflowId OrFallback(string? value, WorkflowId fallback) =>
        !string.IsNullOrEmpty(value) && WorkflowId.TryCreate(value, out var id, out _) ? id : fallback;

    private sealed class MethodClassifier : IWorkflowClassifier
    {
        private readonly System.Collections.Concurrent.ConcurrentDictionary<string, WorkflowId> _cache = new(StringComparer.Ordinal);

        public WorkflowId Classify(ServerCallContext context) =>
            _cache.TryGetValue(context.Method, out var id) ? id : _cache.GetOrAdd(context.Method, static m => OrFallback(m, new WorkflowId(Cicero.Workflows.WorkflowRegistry.OverflowWorkflowName)));
    }

    private sealed class HeaderClassifier(string header, WorkflowId fallback) : IWorkflowClassifier
    {
        public WorkflowId Classify(ServerCallContext context) => OrFallback(RequestHeaderText.Read(context, header), fallback);
    }

    private sealed class UserClassifier(string? claimType, WorkflowId fallback) : IWorkflowClassifier
    {
        public WorkflowId Classify(ServerCallContext context)
        {
            var user = context.GetHttpContext().User;
            if (user.Identity is not { IsAuthenticated: true } identity)
            {
                return fallback;
            }

            return OrFallback(claimType is null ? identity.Name : user.FindFirst(claimType)?.Value, fallback);
        }
    }

    private sealed class FixedClassifier(WorkflowId workflow) : IWorkflowClassifier
    {
        public WorkflowId Classify(ServerCallContext context) => workflow;
    }

    private sealed class DelegateClassifier(Func<ServerCallContext, WorkflowId> classify) : IWorkflowClassifier
    {
        public WorkflowId Classify(ServerCallContext context) => classify(context);
    }
}
