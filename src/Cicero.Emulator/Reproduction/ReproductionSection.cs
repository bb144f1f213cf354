// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Reproduction;

/// <summary>A generated part of docs/reproduction.md: its tables and its claims, for one marker in the document.</summary>
/// <param name="Id">The marker's name: the document holds <c>&lt;!-- generated:Id --&gt;</c> ... <c>&lt;!-- /generated:Id --&gt;</c>.</param>
/// <param name="Markdown">The tables (and the claims' table) that go between the markers.</param>
/// <param name="Claims">The claims, with their verdicts.</param>
public sealed record ReproductionSection(string Id, string Markdown, IReadOnlyList<ReproductionClaim> Claims);
