// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;

namespace Cicero.Policies.Tests.Conformance;

public class StaticRateConformanceTests : RateLimitPolicyConformanceTests
{
    protected override string ExpectedName => RateLimitPolicies.Static;

    protected override RateLimitPolicyFactory CreateFactory() => StaticRatePolicy.CreateFactory(new StaticRateOptions { DefaultRate = 50 });
}
