// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Architecture.Tests;

/// <summary>The test of the type-size rule: partial declarations add up, nested types count on their own.</summary>
public sealed class TypeSizeTests
{
    [Fact]
    public void Partial_declarations_in_several_files_add_up_to_one_type()
    {
        var sizes = TypeSizes.Measure(
        [
            ("A.cs", "namespace N;\ninternal partial class Big\n{\n    private int _a;\n}\n"),
            ("B.cs", "namespace N;\ninternal partial class Big\n{\n    private int _b;\n    private int _c;\n}\n"),
        ]);

        var big = sizes["N.Big"];
        Assert.Equal(4 + 5, big.Lines);
        Assert.Equal(["A.cs", "B.cs"], big.Files);
    }

    [Fact]
    public void A_nested_type_is_counted_apart_from_the_type_around_it()
    {
        var sizes = TypeSizes.Measure(
        [
            ("A.cs", "namespace N.M\n{\n    public sealed class Outer\n    {\n        private struct Inner\n        {\n            public int X;\n        }\n    }\n}\n"),
        ]);

        // Outer spans 7 lines (3-9), of which Inner's 4 (5-8) are Inner's own.
        Assert.Equal(7 - 4, sizes["N.M.Outer"].Lines);
        Assert.Equal(4, sizes["N.M.Outer.Inner"].Lines);
    }

    [Fact]
    public void Records_enums_and_interfaces_are_types_too()
    {
        var text = "namespace N;\npublic record R(int A)\n{\n    public int B => A;\n}\npublic enum E\n{\n    One,\n}\npublic interface I\n{\n}\n";

        var sizes = TypeSizes.Measure([("A.cs", text)]);

        Assert.Equal(4, sizes["N.R"].Lines);
        Assert.Equal(4, sizes["N.E"].Lines);
        Assert.Equal(3, sizes["N.I"].Lines);
    }

    [Fact]
    public void The_repository_scan_reads_product_code_and_skips_build_output()
    {
        var files = TypeSizes.RepositorySources().Select(s => s.Path).ToList();

        Assert.Contains(files, f => f.StartsWith("src" + Path.DirectorySeparatorChar, StringComparison.Ordinal));
        Assert.DoesNotContain(files, f => f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal));
    }
}
