// SPDX-License-Identifier: Apache-2.0

using Cicero.Policies.Registration;
using Cicero.Policies.ReplicaSelection;
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
public sealed class ReplicaSimulation
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
    private readonly Action<object?> _onBacklogTimer;
    private readonly Action<object?> _onFluctuation;
    private readonly Action<object?> _onQueueSample;
    private long _generated;
    private long _completed;
    private long _failed;
    private long _copies;
    private long _copiesAnswered;
    private long _backlogged;
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
            _clients[c] = new SimulatedClient(CreateSelector(selectorName, options, _clock.TimestampFrequency), options.Servers, options.ReplicationFactor);
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
        _onBacklogTimer = state => OnBacklogTimer((GroupBacklog)state!);
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
            _copies, _backlogged, _clock.Elapsed,
            LatencyPercentiles.Of(sorted, 0.5), LatencyPercentiles.Of(sorted, 0.99), LatencyPercentiles.Of(sorted, 0.999), mean,
            lowRate.Length == 0 ? double.NaN : LatencyPercentiles.Of(lowRate, 0.99), CountRateLimited(), _queueSamples)
        {
            MeanFeedbackAgeMs = _feedbackAges == 0 ? double.NaN : _feedbackAgeSumMs / _feedbackAges,
        };
    }

    /// <summary>Creates one client's selector.</summary>
    /// <param name="name">One of <see cref="SimulationSelectorNames.All"/>.</param>
    /// <param name="options">The set-up (C3's n is the number of clients).</param>
    /// <param name="frequency">Timestamps per second.</param>
    /// <returns>A new selector.</returns>
    /// <exception cref="ArgumentException">The name is unknown.</exception>
    public static IReplicaSelector CreateSelector(string name, ReplicaSimulationOptions options, long frequency)
    {
        ArgumentNullException.ThrowIfNull(options);
        var c3 = new C3Options { ClientCount = options.ScoreClientCount ?? options.Clients, ScoreExponent = options.ScoreExponent };
        c3.Rate.Variant = options.RateVariant;
        c3.Rate.Increase = options.RateIncrease;
        return name switch
        {
            SimulationSelectorNames.C3 => new C3ReplicaSelector(c3, frequency),
            SimulationSelectorNames.RoundRobin => new RateLimitedRoundRobinSelector(c3.Rate, frequency),
            SimulationSelectorNames.DynamicSnitch => new DynamicSnitchSelector(new DynamicSnitchOptions(), frequency),
            SimulationSelectorNames.LeastOutstandingFirstTie => new FirstTieLeastOutstandingSelector(),
            SimulationSelectorNames.RoundRobinPlain => PolicyCatalog.Default.GetReplicaSelector(ReplicaSelectorNames.RoundRobin).Create(frequency),
            SimulationSelectorNames.Oracle or SimulationSelectorNames.LeastOutstanding => PolicyCatalog.Default.GetReplicaSelector(name).Create(frequency),
            _ => throw new ArgumentException($"Unknown selector '{name}'. Known: {string.Join(", ", SimulationSelectorNames.All)}.", nameof(name)),
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

    private long CountRateLimited()
    {
        var now = _clock.GetTimestamp();
        var limited = 0L;
        foreach (var client in _clients)
        {
            foreach (var view in client.Views)
            {
                limited += client.Selector switch
                {
                    C3ReplicaSelector c3 when view.SelectorState is not null => c3.GetRateController(view, now).LimitedCount,
                    RateLimitedRoundRobinSelector when view.SelectorState is CubicRateController rate => rate.LimitedCount,
                    _ => 0,
                };
            }
        }

        return limited;
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
        var backlog = client.Backlogs[request.GroupStart];
        if (backlog.Waiting.Count > 0)
        {
            Enqueue(backlog, request);
        }
        else
        {
            var choice = Choose(client, request.GroupStart);
            switch (choice.Kind)
            {
                case ReplicaChoiceKind.Replica:
                    Send(request, choice.Index);
                    break;
                case ReplicaChoiceKind.Backlog:
                    Enqueue(backlog, request);
                    ArmTimer(backlog);
                    break;
                default:
                    Fail();
                    break;
            }
        }

        if (_generated < _options.Requests)
        {
            _clock.Schedule(TimeSpan.FromMilliseconds(Exponential(_random, state is null ? _meanInterArrivalMs : _meanSurgeInterArrivalMs)), _onArrival, state);
        }
    }

    private ReplicaChoice Choose(SimulatedClient client, int groupStart)
    {
        var group = client.Groups[groupStart];
        if (client.Selector is OracleSelector oracle)
        {
            foreach (var replica in group)
            {
                var server = (groupStart + Array.IndexOf(group, replica)) % _options.Servers;
                var queue = _waiting[server].Count + (_options.OracleCountsInService ? _busy[server] : 0);
                oracle.SetTruth(replica, queue, _meanServiceMs[server] / 1000);
            }
        }

        return client.Selector.Choose(group, _clock.GetTimestamp());
    }

    private void Enqueue(GroupBacklog backlog, SimulatedRequest request)
    {
        if (!request.WasBacklogged)
        {
            request.WasBacklogged = true;
            _backlogged++;
        }

        backlog.Waiting.Enqueue(request);
    }

    private void Fail()
    {
        _failed++;
        _inFlight--;
    }

    private void Send(SimulatedRequest request, int index)
    {
        var client = request.Client;
        var now = _clock.GetTimestamp();
        var primaryServer = (request.GroupStart + index) % _options.Servers;
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
            var view = client.Views[copy.Server];
            view.Outstanding++;
            client.Selector.OnSent(view, now);
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
        var view = client.Views[copy.Server];
        client.LastResponse[copy.Server] = now;
        if (view.Outstanding > 0)
        {
            view.Outstanding--;
        }

        var feedback = new ReplicaFeedback(TimeSpan.FromTicks(now - copy.SentAt), copy.QueueAfter, TimeSpan.FromTicks(copy.ServiceTicks));
        client.Selector.OnFeedback(view, feedback, now);
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

        // A response may have raised the replica's rate: retry the backlogs of every group that holds the server.
        for (var r = 0; r < _options.ReplicationFactor; r++)
        {
            var start = copy.Server - r;
            var backlog = client.Backlogs[start < 0 ? start + _options.Servers : start];
            if (backlog.Waiting.Count > 0)
            {
                Pump(backlog);
            }
        }
    }

    private void OnBacklogTimer(GroupBacklog backlog)
    {
        if (backlog.TimerDue != _clock.GetTimestamp())
        {
            return;
        }

        backlog.TimerDue = long.MaxValue;
        Pump(backlog);
    }

    private void Pump(GroupBacklog backlog)
    {
        while (backlog.Waiting.TryPeek(out var request))
        {
            var choice = Choose(backlog.Client, backlog.Start);
            if (choice.Kind == ReplicaChoiceKind.Backlog)
            {
                ArmTimer(backlog);
                return;
            }

            backlog.Waiting.Dequeue();
            if (choice.Kind == ReplicaChoiceKind.Replica)
            {
                Send(request, choice.Index);
            }
            else
            {
                Fail();
            }
        }
    }

    private void ArmTimer(GroupBacklog backlog)
    {
        var now = _clock.GetTimestamp();
        if (backlog.Client.Selector is not IBackpressureAware aware || aware.TimeUntilAvailable(backlog.Client.Groups[backlog.Start], now) is not { } wait)
        {
            // Nothing will free a replica by itself; fail what waits rather than lose it.
            while (backlog.Waiting.TryDequeue(out _))
            {
                Fail();
            }

            return;
        }

        var due = now + Math.Max(1, wait);
        if (due < backlog.TimerDue)
        {
            backlog.TimerDue = due;
            _clock.ScheduleAt(due, _onBacklogTimer, backlog);
        }
    }
}
