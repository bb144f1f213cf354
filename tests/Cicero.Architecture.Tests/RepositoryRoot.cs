// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Architecture.Tests;

/// <summary>Finds the repository's root (the folder holding Cicero.sln) above the test's output folder.</summary>
internal static class RepositoryRoot
{
    public static string Path { get; } = Find();

    private static string Find()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(folder.FullName, "Cicero.sln")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException($"No Cicero.sln above {AppContext.BaseDirectory}.");
    }
}
