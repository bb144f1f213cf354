// SPDX-License-Identifier: Apache-2.0

using Cicero.ReplicaSelection;
using Cicero.Time;

namespace Cicero.Emulator.Simulation.ReplicaSelection;

/// <summary>
/// The C3 paper's replica-selection simulation (§6) as a deterministic discrete-event run on a
/// <see cref="VirtualTimeProvider"/>: Poisson generators hand requests to clients, each client's selector picks one
/// replica of the request's group, servers serve a few requests at a time from a FIFO queue with exponential service
/// times whose mean flips between 1/μ and 1/(D·μ) every T, and responses carry the server's waiting-queue length and
/// the request's service time back to the selector.
/// </summary>
/// <remarks>
/// Single-threaded: every event is a callback of the virtual clock, and all randomness comes from the one seeded
/// <see cref="Random"/> passed in, drawn in event order, so a seed gives the same result bit for bit. Latency is
/// measured from a request's creation (so it includes time in a backlog) to its primary response, for requests that
/// complete after the warm-up. Read-repair copies go to every other replica of the group, bypass the rate limiters'
/// check (but take a token if one is there, as the authors' simulator does) and only feed the selector.
/// </remarks>
public sealed partial class ReplicaSimulation
{
    private readonly ReplicaSimulationOptions _options;
    private readonly string _selectorName;
    private readonly Random _random;
    private readonly Random _environment;
    private readonly Random _service;
    private readonly int _seed;
    private readonly VirtualTimeProvider _clock = new();
    private readonly SimulatedClient[] _clients;
    private readonly int[] _busy;
    private readonly Queue<SimulatedCopy>[] _waiting;
    private readonly double[] _meanServiceMs;
    private readonly List<double> _latencies;
    private readonly List<double> _lowRateLatencies = [];
    private readonly List<int> _queueSamples = [];
    private readonly int _heavyClients;
    private readonly object[] _surgeClientStates;
    private readonly double _meanSurgeInterArrivalMs;
    private readonly long _networkTicks;
    private readonly long _warmUpTicks;
    private readonly double _meanInterArrivalMs;
    private readonly Action<object?> _onArrival;
    private readonly Action<object?> _onServerArrival;
    private readonly Action<object?> _onServiceDone;
    private readonly Action<object?> _onResponse;
    private readonly Action<object?> _onRetry;
    private readonly Action<object?> _onFluctuation;
    private readonly Action<object?> _onQueueSample;
    private long _generated;
    private long _completed;
    private long _failed;
    private long _copies;
    private long _copiesAnswered;
    private long _inFlight;
    private double _feedbackAgeSumMs;
    private long _feedbackAges;

    /// <summary>Creates a run.</summary>
    /// <param name="options">The set-up.</param>
    /// <param name="selectorName">One of <see cref="SimulationSelectorNames.All"/>.</param>
    /// <param name="seed">The seed of the run's random source.</param>
    /// <exception cref="ArgumentException">The selector name is unknown.</exception>
    public ReplicaSimulation(ReplicaSimulationOptions options, string selectorName, int seed)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(selectorName);
        options.Validate();
        _options = options;
        _selectorName = selectorName;
        _seed = seed;
        // Three streams, so that runs with the same seed share their environment whatever the selector or the number of
        // clients (common random numbers): the servers' speed flips, the arrivals (times, clients, groups, read-repair
        // coins) and the service times. Comparisons between selectors are then paired, not just averaged.
        _random = new Random(seed);
        // Derived arithmetically: HashCode.Combine is seeded per process, which made runs differ between processes.
        _environment = new Random(unchecked((seed * 1_000_003) + 1));
        _service = new Random(unchecked((seed * 1_000_003) + 2));
        _networkTicks = options.NetworkDelay.Ticks;
        _warmUpTicks = options.WarmUp.Ticks;
        _meanInterArrivalMs = options.Generators / options.ArrivalRatePerMs;
        _busy = new int[options.Servers];
        _waiting = new Queue<SimulatedCopy>[options.Servers];
        _meanServiceMs = new double[options.Servers];
        for (var s = 0; s < options.Servers; s++)
        {
            _waiting[s] = new Queue<SimulatedCopy>();
        }

        _clients = new SimulatedClient[options.Clients];
        for (var c = 0; c < options.Clients; c++)
        {
            _clients[c] = new SimulatedClient(this, CreateSelector(selectorName, options, _clock.TimestampFrequency), options.Servers, options.ReplicationFactor, _clock.TimestampFrequency);
        }

        _latencies = new List<double>(options.Requests);
        _heavyClients = options.HighDemandFraction > 0 ? (int)(options.HighDemandFraction * options.Clients) : 0;
        _surgeClientStates = new object[options.SurgeAt is null ? 0 : options.SurgeClients];
        for (var c = 0; c < _surgeClientStates.Length; c++)
        {
            _surgeClientStates[c] = c;
        }

        // Each surge client's own stream adds an equal share of the extra load.
        var extraRate = (options.SurgeUtilization - options.Utilization) / options.Utilization * options.ArrivalRatePerMs;
        _meanSurgeInterArrivalMs = _surgeClientStates.Length == 0 ? 0 : _surgeClientStates.Length / extraRate;
        _onArrival = OnArrival;
        _onServerArrival = state => OnServerArrival((SimulatedCopy)state!);
        _onServiceDone = state => OnServiceDone((SimulatedCopy)state!);
        _onResponse = state => OnResponse((SimulatedCopy)state!);
        _onRetry = state => OnRetry((RetryToken)state!);
        _onFluctuation = _ => Fluctuate();
        _onQueueSample = _ => SampleQueue();
    }

    /// <summary>Runs the simulation to the end: every request generated and answered (or failed).</summary>
    /// <returns>The latencies and the conservation counts.</returns>
    /// <exception cref="InvalidOperationException">The run ended with requests unaccounted for.</exception>
    public ReplicaSimulationResult Run()
    {
        if (_generated > 0)
        {
            throw new InvalidOperationException("A simulation runs once.");
        }

        Fluctuate();
        for (var g = 0; g < _options.Generators; g++)
        {
            _clock.Schedule(TimeSpan.FromMilliseconds(Exponential(_random, _meanInterArrivalMs)), _onArrival, null);
        }

        if (_options.SurgeAt is { } surge)
        {
            foreach (var client in _surgeClientStates)
            {
                _clock.Schedule(surge + TimeSpan.FromMilliseconds(Exponential(_random, _meanSurgeInterArrivalMs)), _onArrival, client);
            }
        }

        if (_options.QueueSamplePeriod > TimeSpan.Zero)
        {
            SampleQueue();
        }

        while (_clock.TryRunNext())
        {
        }

        if (_inFlight != 0 || _copies != _copiesAnswered || _generated != _completed + _failed)
        {
            throw new InvalidOperationException(
                $"Conservation broken: generated {_generated}, completed {_completed}, failed {_failed}, in flight {_inFlight}, copies {_copies}/{_copiesAnswered}.");
        }

        var sorted = _latencies.ToArray();
        Array.Sort(sorted);
        var mean = 0.0;
        foreach (var latency in sorted)
        {
            mean += latency;
        }

        mean = sorted.Length == 0 ? double.NaN : mean / sorted.Length;
        var lowRate = _lowRateLatencies.ToArray();
        Array.Sort(lowRate);
        return new ReplicaSimulationResult(
            _selectorName, _seed, _options.FluctuationInterval, _generated, _completed, _failed, sorted.Length,
            _copies, _clients.Sum(c => c.Engine.Backlogged), _clock.Elapsed,
            LatencyPercentiles.Of(sorted, 0.5), LatencyPercentiles.Of(sorted, 0.99), LatencyPercentiles.Of(sorted, 0.999), mean,
            lowRate.Length == 0 ? double.NaN : LatencyPercentiles.Of(lowRate, 0.99), CountRateLimited(), _queueSamples)
        {
            MeanFeedbackAgeMs = _feedbackAges == 0 ? double.NaN : _feedbackAgeSumMs / _feedbackAges,
        };
    }

    private static double Exponential(Random random, double mean) => -Math.Log(1 - random.NextDouble()) * mean;

    /// <summary>
    /// A uniform index below <paramref name="count"/> from exactly one draw: <see cref="Random.Next(int)"/> rejects and
    /// redraws a count-dependent number of times, which would desynchronise the arrival stream between client counts.
    /// </summary>
    private int UniformIndex(int count) => Math.Min(count - 1, (int)(_random.NextDouble() * count));

    private void Fluctuate()
    {
        var slow = _options.SlowServiceTime.TotalMilliseconds;
        var fast = _options.FastServiceTime.TotalMilliseconds;
        for (var s = 0; s < _meanServiceMs.Length; s++)
        {
            _meanServiceMs[s] = _environment.NextDouble() < 0.5 ? slow : fast;
        }

        if (_generated < _options.Requests || _inFlight > 0)
        {
            _clock.Schedule(_options.FluctuationInterval, _onFluctuation, null);
        }
    }

    private void SampleQueue()
    {
        _queueSamples.Add(_waiting[0].Count + _busy[0]);
        if (_generated < _options.Requests || _inFlight > 0)
        {
            _clock.Schedule(_options.QueueSamplePeriod, _onQueueSample, null);
        }
    }

    /// <summary>Picks the client of a base generator's request: uniformly, or the heavy set with the skew's probability.</summary>
    private int PickClient()
    {
        if (_heavyClients == 0)
        {
            return UniformIndex(_clients.Length);
        }

        return _random.NextDouble() < _options.DemandSkew
            ? UniformIndex(_heavyClients)
            : _heavyClients + UniformIndex(_clients.Length - _heavyClients);
    }

    private bool IsLowRate(int client) =>
        (_heavyClients > 0 && client >= _heavyClients) || (_surgeClientStates.Length > 0 && client >= _surgeClientStates.Length);

    private void OnArrival(object? state)
    {
        if (_generated >= _options.Requests)
        {
            return;
        }

        _generated++;
        _inFlight++;
        var clientIndex = state is int surgeClient ? surgeClient : PickClient();
        var client = _clients[clientIndex];
        var request = new SimulatedRequest(client, UniformIndex(_options.Servers), _clock.GetTimestamp(), IsLowRate(clientIndex));
        client.Engine.Route(request, request.GroupStart, request.Created);

        if (_generated < _options.Requests)
        {
            _clock.Schedule(TimeSpan.FromMilliseconds(Exponential(_random, state is null ? _meanInterArrivalMs : _meanSurgeInterArrivalMs)), _onArrival, state);
        }
    }

    /// <summary>The engine had no replica for a request: it fails.</summary>
    internal void Fail()
    {
        _failed++;
        _inFlight--;
    }

    /// <summary>The engine chose <paramref name="primaryServer"/> for a request: send it, and maybe read-repair copies to the rest of its group.</summary>
    internal void Send(SimulatedRequest request, int primaryServer)
    {
        var client = request.Client;
        var now = _clock.GetTimestamp();
        var index = (primaryServer - request.GroupStart + _options.Servers) % _options.Servers;
        if (client.LastResponse[primaryServer] >= 0 && now >= _warmUpTicks)
        {
            _feedbackAgeSumMs += (now - client.LastResponse[primaryServer]) / (double)TimeSpan.TicksPerMillisecond;
            _feedbackAges++;
        }

        SendCopy(new SimulatedCopy(request, primaryServer, now, primary: true));
        if (_options.ReadRepairProbability > 0 && _random.NextDouble() < _options.ReadRepairProbability)
        {
            for (var r = 0; r < _options.ReplicationFactor; r++)
            {
                if (r != index)
                {
                    _copies++;
                    SendCopy(new SimulatedCopy(request, (request.GroupStart + r) % _options.Servers, now, primary: false));
                }
            }
        }

        void SendCopy(SimulatedCopy copy)
        {
            client.Engine.OnSent(copy.Server, now);
            _clock.ScheduleAt(now + _networkTicks, _onServerArrival, copy);
        }
    }

    private void OnServerArrival(SimulatedCopy copy)
    {
        var server = copy.Server;
        if (_busy[server] < _options.Concurrency)
        {
            StartService(copy);
        }
        else
        {
            _waiting[server].Enqueue(copy);
        }
    }

    private void StartService(SimulatedCopy copy)
    {
        _busy[copy.Server]++;
        var serviceMs = Exponential(_service, _meanServiceMs[copy.Server]);
        copy.ServiceTicks = Math.Max(1, (long)Math.Round(serviceMs * TimeSpan.TicksPerMillisecond));
        _clock.ScheduleAt(_clock.GetTimestamp() + copy.ServiceTicks, _onServiceDone, copy);
    }

    private void OnServiceDone(SimulatedCopy copy)
    {
        var server = copy.Server;
        _busy[server]--;
        if (_waiting[server].TryDequeue(out var next))
        {
            StartService(next);
        }

        // The queue left behind, as the server sees it after handing its slot to the next waiting request.
        copy.QueueAfter = _waiting[server].Count;
        _clock.ScheduleAt(_clock.GetTimestamp() + _networkTicks, _onResponse, copy);
    }

    private void OnResponse(SimulatedCopy copy)
    {
        var now = _clock.GetTimestamp();
        var request = copy.Request;
        var client = request.Client;
        client.LastResponse[copy.Server] = now;
        if (copy.Primary)
        {
            _completed++;
            _inFlight--;
            if (now >= _warmUpTicks)
            {
                var latency = (now - request.Created) / (double)TimeSpan.TicksPerMillisecond;
                _latencies.Add(latency);
                if (request.LowRate && (_options.SurgeAt is not { } surge || request.Created >= surge.Ticks))
                {
                    _lowRateLatencies.Add(latency);
                }
            }
        }
        else
        {
            _copiesAnswered++;
        }

        // The engine feeds the selector and retries the backlogs of every group that holds the server.
        var feedback = new ReplicaFeedback(TimeSpan.FromTicks(now - copy.SentAt), copy.QueueAfter, TimeSpan.FromTicks(copy.ServiceTicks));
        client.Engine.Complete(copy.Server, feedback, now);
    }

    /// <summary>Schedules a group's retry on the virtual clock.</summary>
    internal void ScheduleRetry(RetryToken token, long due) => _clock.ScheduleAt(due, _onRetry, token);

    /// <summary>Gets a server's waiting queue (and requests in service, if the oracle counts them), for the oracle.</summary>
    internal int TrueQueue(int server) => _waiting[server].Count + (_options.OracleCountsInService ? _busy[server] : 0);

    /// <summary>Gets a server's current mean service time in seconds, for the oracle.</summary>
    internal double TrueServiceSeconds(int server) => _meanServiceMs[server] / 1000;

    private void OnRetry(RetryToken token) => token.Client.Engine.OnRetryTimer(token.Group, _clock.GetTimestamp());
}
