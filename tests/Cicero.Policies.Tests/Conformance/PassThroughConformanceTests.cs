// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.RateLimiting;
using Cicero.RateAdaptation;

namespace Cicero.Policies.Tests.Conformance;

public class PassThroughConformanceTests : RateLimitPolicyConformanceTests
{
    protected override string ExpectedName => RateLimitPolicies.PassThrough;

    protected override RateLimitPolicyFactory CreateFactory() => BuiltInRateLimitPolicies.PassThrough;
}
