// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Architecture.Tests;

/// <summary>
/// A directed graph between named nodes (namespaces or projects), each edge kept with one example of why it exists
/// (the first type-to-type reference seen), so that a failure names the line of code to look at.
/// </summary>
public sealed class DependencyGraph
{
    private readonly SortedDictionary<string, SortedDictionary<string, string>> edges = new(StringComparer.Ordinal);

    /// <summary>Gets the nodes, sorted.</summary>
    public IEnumerable<string> Nodes => this.edges.Keys;

    /// <summary>Adds a node with no edges (a namespace that references nothing still exists).</summary>
    public void AddNode(string node)
    {
        if (!this.edges.ContainsKey(node))
        {
            this.edges.Add(node, new SortedDictionary<string, string>(StringComparer.Ordinal));
        }
    }

    /// <summary>Adds the edge <paramref name="from"/> -> <paramref name="to"/>; self edges are ignored.</summary>
    public void AddEdge(string from, string to, string because)
    {
        this.AddNode(from);
        this.AddNode(to);
        if (from != to)
        {
            this.edges[from].TryAdd(to, because);
        }
    }

    /// <summary>Gets the nodes <paramref name="from"/> points to, sorted.</summary>
    public IEnumerable<string> Targets(string from) =>
        this.edges.TryGetValue(from, out var targets) ? targets.Keys : [];

    /// <summary>Gets the example reference behind an edge.</summary>
    public string Because(string from, string to) => this.edges[from][to];

    /// <summary>
    /// Finds the strongly connected components with more than one node (Tarjan's algorithm): each is a set of
    /// nodes that all reach each other, so at least one cycle runs through it.
    /// </summary>
    public IReadOnlyList<IReadOnlyList<string>> Cycles()
    {
        var index = new Dictionary<string, int>(StringComparer.Ordinal);
        var low = new Dictionary<string, int>(StringComparer.Ordinal);
        var onStack = new HashSet<string>(StringComparer.Ordinal);
        var stack = new Stack<string>();
        var components = new List<IReadOnlyList<string>>();
        var next = 0;

        void Visit(string node)
        {
            index[node] = low[node] = next++;
            stack.Push(node);
            onStack.Add(node);
            foreach (var target in this.Targets(node))
            {
                if (!index.ContainsKey(target))
                {
                    Visit(target);
                    low[node] = Math.Min(low[node], low[target]);
                }
                else if (onStack.Contains(target) && index.TryGetValue(target, out var targetIndex))
                {
                    low[node] = Math.Min(low[node], targetIndex);
                }
            }

            if (low[node] == index[node])
            {
                var component = new List<string>();
                string member;
                do
                {
                    member = stack.Pop();
                    onStack.Remove(member);
                    component.Add(member);
                }
                while (member != node);

                if (component.Count > 1)
                {
                    component.Sort(StringComparer.Ordinal);
                    components.Add(component);
                }
            }
        }

        foreach (var node in this.Nodes.ToList())
        {
            if (!index.ContainsKey(node))
            {
                Visit(node);
            }
        }

        return components;
    }

    /// <summary>Describes a component: every edge inside it with its example reference, one per line.</summary>
    public string Describe(IReadOnlyList<string> component)
    {
        var members = new HashSet<string>(component, StringComparer.Ordinal);
        var lines = new List<string> { "cycle among " + string.Join(", ", component) + ":" };
        foreach (var from in component)
        {
            foreach (var to in this.Targets(from).Where(members.Contains))
            {
                lines.Add($"  {from} -> {to}  ({this.Because(from, to)})");
            }
        }

        return string.Join(Environment.NewLine, lines);
    }
}
