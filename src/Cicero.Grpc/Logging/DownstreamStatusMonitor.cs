// SPDX-License-Identifier: Apache-2.0

using Cicero.RateAdaptation;
using Microsoft.Extensions.Logging;

namespace Cicero.Grpc.Logging;

/// <summary>
/// Logs each downstream service's rate-exchange status changes (Fresh, Holding, Expired, Unsupported): going silent,
/// falling back to the local rate-limit policy, and recovering. Checks once per control interval on the runtime's
/// clock; the control loop itself stays free of logging.
/// </summary>
internal sealed class DownstreamStatusMonitor : IDisposable
{
    private readonly RateAdaptationController _controller;
    private readonly ILogger _logger;
    private readonly string _policy;
    private readonly Dictionary<string, DownstreamStatus> _last = new(StringComparer.Ordinal);
    private readonly Lock _lock = new();
    private ITimer? _timer;
    private Exception? _lastError;

    public DownstreamStatusMonitor(RateAdaptationController controller, IEnumerable<string> services, string localPolicy, ILogger logger)
    {
        _controller = controller;
        _logger = logger;
        _policy = localPolicy;

        // Services start Fresh in the log's eyes: the first silence is news, a healthy start is not.
        foreach (var service in services)
        {
            _last[service] = DownstreamStatus.Fresh;
        }
    }

    public void Start(TimeProvider timeProvider, TimeSpan interval) =>
        _timer = timeProvider.CreateTimer(static state => ((DownstreamStatusMonitor)state!).Check(), this, interval, interval);

    /// <summary>Compares every service's status with the last one seen and logs the changes.</summary>
    public void Check()
    {
        lock (_lock)
        {
            foreach (var service in _last.Keys.ToArray())
            {
                var status = _controller.GetDownstreamStatus(service);
                var previous = _last[service];
                if (status == previous)
                {
                    continue;
                }

                _last[service] = status;
                var from = previous.ToString();
                switch (status)
                {
                    case DownstreamStatus.Fresh:
                        CiceroLog.DownstreamRecovered(_logger, service, from);
                        break;
                    case DownstreamStatus.Holding:
                        CiceroLog.DownstreamHolding(_logger, service, from);
                        break;
                    default:
                        var to = status.ToString();
                        CiceroLog.FellBackToLocalPolicy(_logger, service, from, to, _policy);
                        break;
                }
            }

            if (_controller.LastError is { } error && !ReferenceEquals(error, _lastError))
            {
                _lastError = error;
                CiceroLog.StepFailed(_logger, error);
            }
        }
    }

    public void Dispose() => _timer?.Dispose();
}
