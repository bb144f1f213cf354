// SPDX-License-Identifier: Apache-2.0

using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Tests.Infrastructure;

/// <summary>Keeps every log entry at <see cref="MinimumLevel"/> or above, to count what a component reported.</summary>
internal sealed class CollectingLoggerProvider : ILoggerProvider
{
    /// <summary>Gets the lowest level kept; warnings by default.</summary>
    public LogLevel MinimumLevel { get; init; } = LogLevel.Warning;

    public ConcurrentQueue<(string Category, LogLevel Level, EventId Event, string Message)> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    private sealed class Logger(CollectingLoggerProvider owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= owner.MinimumLevel;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (IsEnabled(logLevel))
            {
                owner.Entries.Enqueue((category, logLevel, eventId, formatter(state, exception)));
            }
        }
    }
}
