// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Emulator.Scenarios;

/// <summary>One problem in a scenario file: the JSON path of the field and what is wrong with it.</summary>
/// <param name="Path">The field's path from the root, such as <c>services[2].instances</c>; empty for the root.</param>
/// <param name="Message">The problem, such as <c>must be &gt;= 1, was 0</c>.</param>
public readonly record struct ScenarioError(string Path, string Message)
{
    /// <summary>Formats the error as <c>path: message</c>.</summary>
    /// <returns>The text.</returns>
    public override string ToString() => Path.Length == 0 ? Message : $"{Path}: {Message}";
}
