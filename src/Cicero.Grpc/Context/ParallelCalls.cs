// SPDX-License-Identifier: Apache-2.0

using Cicero.Context;

namespace Cicero.Grpc.Context;

/// <summary>
/// Marks downstream calls as one parallel fan-out, so their progress joins as section 5.2.4 says: service time adds the
/// children's mean (Σb/p), load adds their sum. Calls outside a scope join sequentially.
/// </summary>
/// <example>
/// <code>
/// using (ParallelCalls.Begin())
/// {
///     await Task.WhenAll(replicas.Select(r => r.ReadAsync(block)));
/// }
/// </code>
/// </example>
public sealed class ParallelCalls : IDisposable
{
    private static readonly AsyncLocal<ParallelCalls?> CurrentScope = new();

    private readonly RequestContext _context;
    private readonly ParallelCalls? _outer;
    private readonly List<ProgressDelta> _children = [];
    private readonly Lock _lock = new();
    private bool _disposed;

    private ParallelCalls(RequestContext context, ParallelCalls? outer)
    {
        _context = context;
        _outer = outer;
    }

    /// <summary>Gets the number of child calls that have reported so far.</summary>
    public int Count
    {
        get
        {
            lock (_lock)
            {
                return _children.Count;
            }
        }
    }

    internal static ParallelCalls? Current => CurrentScope.Value;

    /// <summary>Starts a parallel fan-out in the current request; disposing the scope joins the children's progress.</summary>
    /// <returns>The scope.</returns>
    /// <exception cref="InvalidOperationException">There is no current request (<see cref="CiceroContext.Current"/>).</exception>
    public static ParallelCalls Begin()
    {
        var context = CiceroContext.Current ?? throw new InvalidOperationException("ParallelCalls.Begin needs a current request context (CiceroContext.Current).");
        var scope = new ParallelCalls(context, CurrentScope.Value);
        CurrentScope.Value = scope;
        return scope;
    }

    /// <summary>Joins the children's progress into the request and ends the scope.</summary>
    public void Dispose()
    {
        ProgressDelta[] children;
        lock (_lock)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            children = [.. _children];
        }

        if (ReferenceEquals(CurrentScope.Value, this))
        {
            CurrentScope.Value = _outer;
        }

        if (children.Length > 0)
        {
            _context.Progress.AddParallel(children);
        }
    }

    /// <summary>Records a child's progress; after the scope ended, it joins sequentially instead so nothing is lost.</summary>
    internal void Add(ProgressDelta child)
    {
        lock (_lock)
        {
            if (!_disposed)
            {
                _children.Add(child);
                return;
            }
        }

        _context.Progress.AddSequential(child);
    }

    /// <summary>Whether this scope belongs to the given request.</summary>
    internal bool Belongs(RequestContext context) => ReferenceEquals(_context, context);
}
