// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>A public trace of the Table 5.4 sweep: its label in the tables, the importer's format, where it is, and how often it is played back to back.</summary>
/// <param name="Label">The name the tables show.</param>
/// <param name="Format">The importer's format (<c>meta-block</c>, <c>meta-kv</c>, <c>azure-llm</c>).</param>
/// <param name="Path">The file, read in place.</param>
/// <param name="Repeats">
/// How many times the sample is played back to back; 0 (the default) for as many as make at least
/// <see cref="DeadlineSweep.MinimumRequests"/> requests (a sample of a few hundred requests is short for rate control to act).
/// </param>
public sealed record SweepTrace(string Label, string Format, string Path, int Repeats = 0);
