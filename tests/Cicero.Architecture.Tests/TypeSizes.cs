// SPDX-License-Identifier: Apache-2.0

using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Cicero.Architecture.Tests;

/// <summary>
/// Counts the lines of every type declared in C# source, per type rather than per file: the lines of all its partial
/// declarations added up, without the lines of the types nested in it (each nested type is counted on its own).
/// </summary>
internal static class TypeSizes
{
    /// <summary>The lines of each type in <paramref name="sources"/> (path and text), keyed by its full name.</summary>
    public static IReadOnlyDictionary<string, TypeSize> Measure(IEnumerable<(string Path, string Text)> sources)
    {
        var sizes = new Dictionary<string, TypeSize>(StringComparer.Ordinal);
        foreach (var (path, text) in sources)
        {
            var root = CSharpSyntaxTree.ParseText(text, path: path).GetRoot();
            foreach (var type in root.DescendantNodes().OfType<BaseTypeDeclarationSyntax>())
            {
                var own = Lines(type) - type.ChildNodes().OfType<BaseTypeDeclarationSyntax>().Sum(Lines);
                var name = FullName(type);
                sizes[name] = sizes.TryGetValue(name, out var size)
                    ? size with { Lines = size.Lines + own, Files = [.. size.Files, path] }
                    : new TypeSize(name, own, [path]);
            }
        }

        return sizes;
    }

    /// <summary>The C# files of the repository's product code: src/, samples/ and bench/, without build output.</summary>
    public static IEnumerable<(string Path, string Text)> RepositorySources()
    {
        foreach (var folder in new[] { "src", "samples", "bench" })
        {
            var full = Path.Combine(RepositoryRoot.Path, folder);
            foreach (var file in Directory.EnumerateFiles(full, "*.cs", SearchOption.AllDirectories).Order(StringComparer.Ordinal))
            {
                var relative = Path.GetRelativePath(RepositoryRoot.Path, file);
                var parts = relative.Split(Path.DirectorySeparatorChar);
                if (parts.Contains("obj") || parts.Contains("bin"))
                {
                    continue;
                }

                yield return (relative, File.ReadAllText(file));
            }
        }
    }

    private static int Lines(SyntaxNode node)
    {
        var span = node.GetLocation().GetLineSpan();
        return span.EndLinePosition.Line - span.StartLinePosition.Line + 1;
    }

    private static string FullName(BaseTypeDeclarationSyntax type)
    {
        var names = type.AncestorsAndSelf().OfType<BaseTypeDeclarationSyntax>().Reverse().Select(t => t.Identifier.Text);
        var space = string.Join('.', type.Ancestors().OfType<BaseNamespaceDeclarationSyntax>().Reverse().Select(n => n.Name.ToString()));
        return (space.Length == 0 ? string.Empty : space + ".") + string.Join('.', names);
    }
}

/// <summary>One type's size: its full name, its own lines and the files that declare it.</summary>
internal sealed record TypeSize(string Name, int Lines, IReadOnlyList<string> Files);
