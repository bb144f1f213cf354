// SPDX-License-Identifier: Apache-2.0

using Cicero.Workflows;
using Grpc.Core;

namespace Cicero.Grpc.Classification;

/// <summary>Decides which workflow (tenant) an external request at an entry point belongs to.</summary>
/// <remarks>Called once per request on the hot path; must be thread-safe and should not allocate for known tenants.</remarks>
public interface IWorkflowClassifier
{
    /// <summary>Classifies a call.</summary>
    /// <param name="context">The incoming call: method, headers, authenticated user.</param>
    /// <returns>The workflow.</returns>
    WorkflowId Classify(ServerCallContext context);
}
