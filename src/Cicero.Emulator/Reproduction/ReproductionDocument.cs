// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using System.Text;

namespace Cicero.Emulator.Reproduction;

/// <summary>Puts generated sections into docs/reproduction.md between their markers, leaving the prose around them alone.</summary>
public static class ReproductionDocument
{
    /// <summary>Replaces the text between each section's markers.</summary>
    /// <param name="document">The document's text.</param>
    /// <param name="sections">The generated sections.</param>
    /// <returns>The new text.</returns>
    /// <exception cref="FormatException">A section's markers are missing, repeated or out of order.</exception>
    public static string Fill(string document, IEnumerable<ReproductionSection> sections)
    {
        ArgumentNullException.ThrowIfNull(document);
        ArgumentNullException.ThrowIfNull(sections);
        foreach (var section in sections)
        {
            var open = $"<!-- generated:{section.Id} -->";
            var close = $"<!-- /generated:{section.Id} -->";
            var start = document.IndexOf(open, StringComparison.Ordinal);
            var end = document.IndexOf(close, StringComparison.Ordinal);
            if (start < 0 || end < start || document.IndexOf(open, start + open.Length, StringComparison.Ordinal) >= 0)
            {
                throw new FormatException($"The document needs exactly one '{open}' followed by '{close}'.");
            }

            var body = start + open.Length;
            document = document[..body] + "\n" + section.Markdown.TrimEnd('\n') + "\n" + document[end..];
        }

        return document;
    }

    /// <summary>Gets the text between a section's markers, as <see cref="Fill"/> writes it.</summary>
    /// <param name="document">The document's text.</param>
    /// <param name="id">The section's marker name.</param>
    /// <returns>The section's Markdown, without the markers and the newline after the opening one.</returns>
    /// <exception cref="FormatException">The markers are missing or out of order.</exception>
    public static string Section(string document, string id)
    {
        ArgumentNullException.ThrowIfNull(document);
        var open = $"<!-- generated:{id} -->\n";
        var start = document.IndexOf(open, StringComparison.Ordinal);
        var end = document.IndexOf($"<!-- /generated:{id} -->", StringComparison.Ordinal);
        return start < 0 || end < start + open.Length
            ? throw new FormatException($"The document needs '<!-- generated:{id} -->' followed by '<!-- /generated:{id} -->'.")
            : document[(start + open.Length)..end];
    }

    /// <summary>Formats claims as a table: claim, paper, ours, verdict, reason.</summary>
    /// <param name="claims">The claims.</param>
    /// <returns>A Markdown table.</returns>
    public static string ClaimsTable(IEnumerable<ReproductionClaim> claims)
    {
        ArgumentNullException.ThrowIfNull(claims);
        var text = new StringBuilder("| claim | paper | ours | verdict | why |\n|---|---|---|---|---|\n");
        foreach (var claim in claims)
        {
            text.Append(CultureInfo.InvariantCulture, $"| {claim.Claim} | {claim.Paper} | {claim.Ours} | **{Word(claim.Verdict)}** | {claim.Reason} |\n");
        }

        return text.ToString();
    }

    /// <summary>Gets the word a verdict is printed as: holds, holds (beaten), fails or tie.</summary>
    /// <param name="verdict">The verdict.</param>
    /// <returns>The word.</returns>
    public static string Word(ReproductionVerdict verdict) => verdict switch
    {
        ReproductionVerdict.Reproduced => "holds",
        ReproductionVerdict.Beaten => "holds (beaten)",
        ReproductionVerdict.Missed => "fails",
        _ => "tie",
    };
}
