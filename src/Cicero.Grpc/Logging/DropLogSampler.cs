// SPDX-License-Identifier: Apache-2.0

using Cicero.Grpc.Context;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Logging;

/// <summary>
/// Logs drops at most once per interval, with the number suppressed in between, so that under overload logging costs
/// one message a second rather than becoming the overload. A suppressed drop costs two interlocked operations.
/// </summary>
internal sealed class DropLogSampler
{
    /// <summary>The least time between two drop messages.</summary>
    public static readonly TimeSpan DefaultInterval = TimeSpan.FromSeconds(1);

    private readonly ILogger _logger;
    private readonly TimeProvider _timeProvider;
    private readonly TimeSpan _interval;
    private readonly long _intervalTicks;
    private long _nextAt = long.MinValue;
    private long _suppressed;

    public DropLogSampler(ILogger logger, TimeProvider timeProvider, TimeSpan? interval = null)
    {
        _logger = logger;
        _timeProvider = timeProvider;
        _interval = interval ?? DefaultInterval;
        _intervalTicks = (long)(_interval.TotalSeconds * timeProvider.TimestampFrequency);
    }

    public void OnDrop(string method, string service, DropReason reason)
    {
        if (!_logger.IsEnabled(LogLevel.Warning))
        {
            return;
        }

        var now = _timeProvider.GetTimestamp();
        var next = Interlocked.Read(ref _nextAt);
        if (now < next || Interlocked.CompareExchange(ref _nextAt, now + _intervalTicks, next) != next)
        {
            Interlocked.Increment(ref _suppressed);
            return;
        }

        CiceroLog.Dropped(_logger, method, service, DropReasonNames.ToWire(reason), Interlocked.Exchange(ref _suppressed, 0), _interval);
    }
}
