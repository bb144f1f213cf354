// SPDX-License-Identifier: Apache-2.0

namespace Cicero.Context;

/// <summary>The ambient <see cref="RequestContext"/> of the current asynchronous flow.</summary>
/// <remarks>
/// Backed by an <see cref="AsyncLocal{T}"/>, like <c>Activity.Current</c>: a value set in a child flow does not leak
/// back to its parent. The static field holds only the flow-local slot; the state lives in each flow.
/// </remarks>
public static class CiceroContext
{
    private static readonly AsyncLocal<RequestContext?> Ambient = new();

    /// <summary>Gets or sets the context of the request this flow is working on.</summary>
    public static RequestContext? Current
    {
        get => Ambient.Value;
        set => Ambient.Value = value;
    }

    /// <summary>Sets <see cref="Current"/> until the returned scope is disposed, then restores the previous value.</summary>
    /// <param name="context">The context to make current.</param>
    /// <returns>A scope to dispose.</returns>
    public static Scope Use(RequestContext? context)
    {
        var previous = Ambient.Value;
        Ambient.Value = context;
        return new Scope(previous);
    }

    /// <summary>Restores the previous ambient context when disposed.</summary>
    public readonly struct Scope : IDisposable
    {
        private readonly RequestContext? _previous;

        internal Scope(RequestContext? previous)
        {
            _previous = previous;
        }

        /// <inheritdoc />
        public void Dispose() => Ambient.Value = _previous;
    }
}
