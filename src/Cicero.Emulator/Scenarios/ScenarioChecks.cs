// SPDX-License-Identifier: Apache-2.0

using System.Globalization;
using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;

namespace Cicero.Emulator.Scenarios;

/// <summary>
/// What the section validators of a scenario share: the problems found so far (each with its JSON path), the names
/// declared by the sections checked before (services, routes, workflows, tables), and the checks that add a problem
/// with its path. One instance per validation.
/// </summary>
internal sealed class ScenarioChecks
{
    public ScenarioChecks(PolicyCatalog catalog) => Catalog = catalog;

    public PolicyCatalog Catalog { get; }

    public List<ScenarioError> Errors { get; } = [];

    public Dictionary<string, ServiceSpec> Services { get; } = new(StringComparer.Ordinal);

    public Dictionary<(string From, string To), RouteSpec> Routes { get; } = [];

    public HashSet<string> Workflows { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets each table's workflow and partitions, so workflows sharing a table agree on its partitions.</summary>
    public Dictionary<string, (string Workflow, int Partitions)> Tables { get; } = new(StringComparer.Ordinal);

    /// <summary>Gets or sets how many workflows have a latency SLO (cake-slo needs one).</summary>
    public int WorkflowsWithSlo { get; set; }

    public bool KnownService(string path, string? name)
    {
        if (string.IsNullOrEmpty(name))
        {
            Error(path, "is required");
            return false;
        }

        if (Services.ContainsKey(name))
        {
            return true;
        }

        if (Services.Count > 0)
        {
            Error(path, $"unknown service '{name}'; known: {Known(Services.Keys)}");
        }

        return false;
    }

    public bool Name(string path, string? name)
    {
        if (string.IsNullOrWhiteSpace(name))
        {
            Error(path, "is required");
            return false;
        }

        foreach (var c in name)
        {
            if (!(char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '+'))
            {
                Error(path, $"may contain only letters, digits, '-', '_', '.' and '+', was '{name}'");
                return false;
            }
        }

        return true;
    }

    public bool OneOf(string path, string? value, IReadOnlyList<string> allowed, bool ignoreCase = false)
    {
        var comparison = ignoreCase ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
        foreach (var candidate in allowed)
        {
            if (string.Equals(candidate, value, comparison))
            {
                return true;
            }
        }

        Error(path, value is null ? $"is required; one of: {string.Join(", ", allowed)}" : $"must be one of: {string.Join(", ", allowed)}; was '{value}'");
        return false;
    }

    public bool AtLeast(string path, int value, int minimum)
    {
        if (value >= minimum)
        {
            return true;
        }

        Error(path, $"must be >= {minimum}, was {value}");
        return false;
    }

    public bool AtMost(string path, double value, double maximum, string what)
    {
        if (!(value > maximum))
        {
            return true;
        }

        Error(path, $"must be <= {maximum.ToString("N0", CultureInfo.InvariantCulture)} {what}, was {F(value)}");
        return false;
    }

    public bool Positive(string path, double value)
    {
        if (value > 0 && double.IsFinite(value))
        {
            return true;
        }

        Error(path, $"must be > 0, was {F(value)}");
        return false;
    }

    public bool NonNegative(string path, double value)
    {
        if (value >= 0 && double.IsFinite(value))
        {
            return true;
        }

        Error(path, $"must be >= 0, was {F(value)}");
        return false;
    }

    public void Error(string path, string message) => Errors.Add(new ScenarioError(path, message));

    public static string Known(IEnumerable<string> names) => string.Join(", ", names);

    public static string F(double value) => value.ToString("R", CultureInfo.InvariantCulture);

    public void ReplicaSelector(string path, string? name)
    {
        if (string.Equals(name, ReplicaSelectorNames.Oracle, StringComparison.OrdinalIgnoreCase))
        {
            Error(path, "'oracle' needs the true server state, which the topology runner does not feed it");
        }
        else
        {
            OneOf(path, name, Catalog.ReplicaSelectorNames, ignoreCase: true);
        }
    }

    public void Distribution(string path, DistributionSpec distribution)
    {
        if (!OneOf(path + ".distribution", distribution.Distribution, DistributionKinds.All))
        {
            return;
        }

        if (distribution.Distribution == DistributionKinds.Constant)
        {
            NonNegative(path + ".meanMs", distribution.MeanMs);
        }
        else
        {
            Positive(path + ".meanMs", distribution.MeanMs);
        }

        if (distribution.Distribution == DistributionKinds.LogNormal)
        {
            Positive(path + ".cv", distribution.Cv);
        }
    }
}
