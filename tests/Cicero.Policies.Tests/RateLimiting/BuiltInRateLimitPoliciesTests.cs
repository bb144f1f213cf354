// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;
using Cicero.Workflows;

namespace Cicero.Policies.Tests.RateLimiting;

public class BuiltInRateLimitPoliciesTests
{
    [Fact]
    public void PassThrough_Create_ReturnsCoreInstanceUnderItsName()
    {
        var factory = BuiltInRateLimitPolicies.PassThrough;

        var policy = factory.Create(new RateLimitPolicyContext(new WorkflowRegistry(), TimeSpan.FromMilliseconds(100)));

        Assert.Equal(RateLimitPolicies.PassThrough, factory.Name);
        Assert.Same(PassThroughRateLimitPolicy.Instance, policy);
    }
}
