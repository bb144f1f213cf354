// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;

namespace Cicero.Policies.Tests.Conformance;

public class MinimumThroughputConformanceTests : RateLimitPolicyConformanceTests
{
    protected override string ExpectedName => RateLimitPolicies.MinimumThroughput;

    protected override RateLimitPolicyFactory CreateFactory() => MinimumThroughputPolicy.CreateFactory();
}
