// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;
using Cicero.Policies.Scheduling;
using Cicero.Resources;

namespace Cicero.Policies.Tests.Scheduling;

public class FifoSchedulerConformanceTests : SubtaskSchedulerConformanceTests
{
    protected override ISubtaskScheduler CreateScheduler(SubtaskSchedulerContext context) => new FifoScheduler();
}
