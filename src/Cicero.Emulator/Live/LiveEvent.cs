// SPDX-License-Identifier: Apache-2.0

using Cicero.Emulator.Simulation.Topology;

namespace Cicero.Emulator.Live;

/// <summary>
/// What the live load generator's callers tell its collector, through a bounded channel: a request was offered, or a
/// request ended with an outcome. One collector applies them in order, so the counters need no lock.
/// </summary>
/// <param name="Workflow">The workflow's index.</param>
/// <param name="Second">The second of the run the event happened in.</param>
/// <param name="Measured">Whether the request arrived in the measured window.</param>
/// <param name="Finished">False for an offer, true for an outcome.</param>
/// <param name="Outcome">The outcome (for an outcome).</param>
/// <param name="LatencyMs">The request's latency (for an outcome).</param>
/// <param name="Deadline">The workflow's deadline, for the latency normalised by it.</param>
internal readonly record struct LiveEvent(int Workflow, int Second, bool Measured, bool Finished, Outcome Outcome, double LatencyMs, TimeSpan? Deadline);
