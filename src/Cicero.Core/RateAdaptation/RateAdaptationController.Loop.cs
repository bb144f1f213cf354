// SPDX-License-Identifier: Apache-2.0

namespace Cicero.RateAdaptation;

/// <content>
/// The asynchronous adapter: queries the downstream instances and runs <see cref="Step"/>, on a timer of the injected
/// clock (<see cref="RateAdaptationTimer"/>); a slow or failing instance ages instead of stopping the loop.
/// </content>
public sealed partial class RateAdaptationController
{
    /// <summary>Queries every downstream instance (in parallel, each bounded by the query timeout), then runs <see cref="Step"/>.</summary>
    /// <param name="cancellationToken">Stops the queries.</param>
    /// <returns>A task that completes when the step has run.</returns>
    public async Task RunOnceAsync(CancellationToken cancellationToken = default)
    {
        var targets = GetDownstreamInstances();
        if (_source is not null && targets.Count > 0)
        {
            var started = _timeProvider.GetTimestamp();
            using var timeout = new CancellationTokenSource(_options.QueryTimeout, _timeProvider);
            using var linked = CancellationTokenSource.CreateLinkedTokenSource(timeout.Token, cancellationToken);
            var pending = new Task<DownstreamRateAnswer>[targets.Count];
            for (var i = 0; i < targets.Count; i++)
            {
                pending[i] = Query(targets[i], linked.Token).AsTask();
            }

            for (var i = 0; i < targets.Count; i++)
            {
                try
                {
                    // One deadline for the whole round, so n silent instances cost one timeout, not n.
                    var remaining = _options.QueryTimeout - _timeProvider.GetElapsedTime(started);
                    var answer = await pending[i].WaitAsync(remaining > TimeSpan.Zero ? remaining : TimeSpan.Zero, _timeProvider, cancellationToken).ConfigureAwait(false);
                    RecordAnswer(targets[i], answer, _timeProvider.GetTimestamp());
                }
                catch (Exception) when (!cancellationToken.IsCancellationRequested)
                {
                    // A slow, failing or malformed downstream must not stop the loop; its answer ages instead.
                    RecordFailure(targets[i]);
                }
            }
        }

        Step(_timeProvider.GetTimestamp());
    }

    /// <summary>Starts running <see cref="RunOnceAsync"/> every interval on the injected clock.</summary>
    /// <exception cref="InvalidOperationException">Already started.</exception>
    public void Start() => _loop.Start(_options.Interval);

    /// <inheritdoc />
    public void Dispose() => _loop.Dispose();

    private ValueTask<DownstreamRateAnswer> Query(DownstreamInstance target, CancellationToken cancellationToken)
    {
        try
        {
            return _source!.GetAdmissionRatesAsync(target, _options.ProcessId, cancellationToken);
        }
        catch (Exception ex)
        {
            return ValueTask.FromException<DownstreamRateAnswer>(ex);
        }
    }
}
