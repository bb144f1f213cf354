// SPDX-License-Identifier: Apache-2.0

using Microsoft.Extensions.Hosting;

namespace Cicero.Emulator.Live;

/// <summary>
/// The lifetime of an instance's web host inside a process that hosts many of them: it leaves Ctrl-C and SIGTERM to the
/// process. The default console lifetime registers its own handlers in every host, and each would stop its application
/// on its own (health NOT_SERVING, stopping tokens cancelled) on the thread that delivers the signal, beside, and in an
/// order the runtime does not define against, the handler of the program that owns the run.
/// </summary>
internal sealed class EmbeddedHostLifetime : IHostLifetime
{
    /// <inheritdoc/>
    public Task WaitForStartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc/>
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
