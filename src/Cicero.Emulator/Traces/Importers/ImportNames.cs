// SPDX-License-Identifier: Apache-2.0

using System.Text;

namespace Cicero.Emulator.Traces.Importers;

/// <summary>Turns a public trace's tenant or operation field into a Cicero name.</summary>
internal static class ImportNames
{
    /// <summary>Interns a valid name; replaces the characters a name may not hold with '_' otherwise.</summary>
    public static string Name(ReadOnlySpan<byte> field, NameInterner names) =>
        TraceNames.IsValid(field) ? names.Intern(field) : names.Intern(TraceNames.Sanitize(Encoding.UTF8.GetString(field)));
}
