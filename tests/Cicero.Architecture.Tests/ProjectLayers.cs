// SPDX-License-Identifier: Apache-2.0

using System.Xml.Linq;

namespace Cicero.Architecture.Tests;

/// <summary>
/// The layering of the projects, Core &lt;- Policies &lt;- Grpc &lt;- Emulator &lt;- samples (docs/architecture.md), and its
/// check over the <c>ProjectReference</c> items of the project files: a project references only lower layers.
/// </summary>
public static class ProjectLayers
{
    /// <summary>The layer of every project under src/ (by project name) and of every sample (any project under samples/).</summary>
    public static readonly IReadOnlyDictionary<string, int> Source = new Dictionary<string, int>(StringComparer.Ordinal)
    {
        ["Cicero.Core"] = 0,
        ["Cicero.Policies"] = 1,

        // The conformance suites users' policy tests inherit: beside Policies, over Core only.
        ["Cicero.Testing"] = 1,
        ["Cicero.Grpc"] = 2,
        ["Cicero.Emulator"] = 3,
    };

    /// <summary>The layer of the samples: above everything in src/.</summary>
    public const int Samples = 4;

    /// <summary>Reads the project reference graph of every <c>*.csproj</c> under <paramref name="folders"/>.</summary>
    public static DependencyGraph Read(IEnumerable<string> folders)
    {
        var graph = new DependencyGraph();
        foreach (var folder in folders)
        {
            foreach (var project in Directory.EnumerateFiles(folder, "*.csproj", SearchOption.AllDirectories))
            {
                var name = Path.GetFileNameWithoutExtension(project);
                graph.AddNode(name);
                foreach (var reference in XDocument.Load(project).Descendants("ProjectReference"))
                {
                    var include = (string?)reference.Attribute("Include")
                        ?? throw new InvalidOperationException($"{project}: a ProjectReference without Include.");
                    var target = Path.GetFileNameWithoutExtension(include.Replace('\\', '/'));
                    graph.AddEdge(name, target, $"{Path.GetFileName(project)} references {include}");
                }
            }
        }

        return graph;
    }

    /// <summary>Lists every reference that does not point to a strictly lower layer, and every project with no layer.</summary>
    /// <param name="graph">The project reference graph.</param>
    /// <param name="layerOf">The layer of a project, or null if it has none.</param>
    public static IReadOnlyList<string> Violations(DependencyGraph graph, Func<string, int?> layerOf)
    {
        var violations = new List<string>();
        foreach (var from in graph.Nodes)
        {
            if (layerOf(from) is not { } fromLayer)
            {
                violations.Add($"{from} has no layer: add it to ProjectLayers.Source (and to docs/architecture.md).");
                continue;
            }

            foreach (var to in graph.Targets(from))
            {
                var toLayer = layerOf(to);
                if (toLayer is null || toLayer >= fromLayer)
                {
                    violations.Add($"{from} (layer {fromLayer}) -> {to} (layer {toLayer?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "none"}): {graph.Because(from, to)}");
                }
            }
        }

        return violations;
    }
}
