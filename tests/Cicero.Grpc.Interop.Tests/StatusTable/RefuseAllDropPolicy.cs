// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Workflows;

namespace Cicero.Grpc.Interop.Tests.StatusTable;

/// <summary>An operator's drop policy that refuses every request, for its own reason (<see cref="DropReason.Policy"/>).</summary>
public sealed class RefuseAllDropPolicy : IDropPolicy
{
    /// <summary>The policy's configuration name.</summary>
    public const string Name = "refuse-all";

    /// <summary>Gets the factory that registers the policy under <see cref="Name"/>.</summary>
    public static DropPolicyFactory Factory { get; } = new RefuseAllFactory();

    /// <inheritdoc />
    public DropDecision Evaluate(in AdmissionCandidate candidate, long now) => DropDecision.Drop(DropReason.Policy);

    private sealed class RefuseAllFactory : DropPolicyFactory
    {
        public override string Name => RefuseAllDropPolicy.Name;

        public override IDropPolicy Create(WorkflowRegistry registry) => new RefuseAllDropPolicy();
    }
}
