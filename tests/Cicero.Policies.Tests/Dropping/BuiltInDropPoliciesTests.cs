// SPDX-License-Identifier: Apache-2.0

using Cicero.Admission;
using Cicero.Context;
using Cicero.Policies.Dropping;
using Cicero.Time;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.Dropping;

public class BuiltInDropPoliciesTests
{
    private readonly WorkflowRegistry _registry = new();

    [Fact]
    public void DeadlineFeasibility_Create_ReturnsCoreInstanceUnderItsName()
    {
        var factory = BuiltInDropPolicies.DeadlineFeasibility;

        Assert.Equal(DropPolicies.DeadlineFeasibility, factory.Name);
        Assert.Same(DeadlineFeasibilityDropPolicy.Instance, factory.Create(_registry));
    }

    [Fact]
    public void Never_Create_ReturnsCoreInstanceUnderItsName()
    {
        var factory = BuiltInDropPolicies.Never;

        Assert.Equal(DropPolicies.Never, factory.Name);
        Assert.Same(NeverDropPolicy.Instance, factory.Create(_registry));
    }

    [Fact]
    public void DeadlineFeasibility_InAdmissionController_DropsExpiredRequest()
    {
        var clock = new VirtualTimeProvider();
        using var admission = new AdmissionController(_registry, BuiltInDropPolicies.DeadlineFeasibility.Create(_registry), null, clock);
        var context = RequestContext.Start("tenant", clock, TimeSpan.FromMilliseconds(10));
        clock.Advance(TimeSpan.FromMilliseconds(20));

        Assert.Equal(DropReason.DeadlineInfeasible, admission.TryAdmit(context).Reason);
    }
}
