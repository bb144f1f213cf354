// SPDX-License-Identifier: Apache-2.0

// A namespace ring on purpose: the architecture test must report it (ArchitectureTestTests). Ring.A reaches
// Ring.B only inside a method body, which reflection alone would miss; Ring.B reaches back through a field.
#pragma warning disable CA1812, CA1822, IDE0051, CS0649

namespace Cicero.Architecture.Tests.Fixtures.Ring.A
{
    internal sealed class Caller
    {
        public int Call() => new Cicero.Architecture.Tests.Fixtures.Ring.B.Callee().Value;
    }
}

namespace Cicero.Architecture.Tests.Fixtures.Ring.B
{
    internal sealed class Callee
    {
        private readonly Cicero.Architecture.Tests.Fixtures.Ring.A.Caller? back;

        public int Value => this.back is null ? 1 : 2;
    }
}

namespace Cicero.Architecture.Tests.Fixtures.Chain.A
{
    internal sealed class Top
    {
        public int Call() => new Cicero.Architecture.Tests.Fixtures.Chain.B.Bottom().Value;
    }
}

namespace Cicero.Architecture.Tests.Fixtures.Chain.B
{
    internal sealed class Bottom
    {
        public int Value => 1;
    }
}
