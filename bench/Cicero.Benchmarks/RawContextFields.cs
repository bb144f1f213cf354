// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Benchmarks;

/// <summary>The fields of an encoded context read back as plain values: the baseline of <see cref="ContextCodecBenchmarks"/>.</summary>
/// <param name="WorkflowLength">The workflow id's length; the id itself stays in the buffer.</param>
/// <param name="Start">The start timestamp as written (the baseline does not convert it to elapsed time).</param>
/// <param name="Deadline">The deadline in ticks.</param>
/// <param name="BeforeArrivalServiceTime">a.st.</param>
/// <param name="BeforeArrivalLoad">a.θ.</param>
/// <param name="ProgressServiceTime">b.st.</param>
/// <param name="ProgressLoad">b.θ.</param>
/// <param name="EstimatedServiceTime">T.st.</param>
/// <param name="EstimatedLoad">T.θ.</param>
public readonly record struct RawContextFields(
    int WorkflowLength,
    long Start,
    long Deadline,
    double BeforeArrivalServiceTime,
    double BeforeArrivalLoad,
    double ProgressServiceTime,
    double ProgressLoad,
    double EstimatedServiceTime,
    double EstimatedLoad);
