// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;

namespace Cicero.Policies.Tests.Conformance;

public class BottleneckFairnessConformanceTests : RateLimitPolicyConformanceTests
{
    protected override string ExpectedName => RateLimitPolicies.BottleneckFairness;

    protected override RateLimitPolicyFactory CreateFactory() => BottleneckFairnessPolicy.CreateFactory();
}
