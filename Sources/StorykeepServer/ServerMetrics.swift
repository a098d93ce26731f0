import CoreMetrics
import Hummingbird
import Prometheus
import Synchronization

/// The server's metrics: swift-metrics with swift-prometheus as its backend, bootstrapped once
/// per process (``shared``), and written in Prometheus's text format at `GET /metrics`.
///
/// What it counts, by name (every name starts `storykeep_`):
/// - `http_requests_total` and `http_request_duration_seconds` (a histogram), by `tenant`,
///   `operation` and `status`;
/// - `graphql_errors_total` by `tenant` and `code`;
/// - `login_failures_total` and `lockouts_total` by `tenant`;
/// - `rate_limited_total` by `tenant`;
/// - `document_cache_lookups_total` by `tenant` and `result` (`GraphQLMetrics.swift`);
/// - `db_pool_connections_in_use`, `db_pool_waiting` and `db_pool_wait_seconds` (`PostgresPool`);
/// - `argon2_queue_length`, `argon2_wait_seconds` and `argon2_seconds` (`PasswordHasher`);
/// - `job_rounds_total` and `job_work_total` by `job` (``BackgroundJobService``);
/// - `live_connections` by `transport` (``LiveSocketEndpoint``, ``GraphQLSSEMiddleware``).
///
/// Those a request records (the first four groups) go to the registry through handlers made
/// once and kept (``counter(_:_:)``, ``histogram(_:_:)``), not through swift-metrics, whose every
/// `Counter(label:dimensions:)` sanitises the names and asks the registry under its lock: on the
/// cached feed request, that was most of what metrics cost (issue 17's < 5 %). swift-metrics'
/// users (the pool, Argon2, the jobs) get kept handlers too, through ``KeptHandlersFactory``.
public final class ServerMetrics: Sendable {
    /// The process's: the first use bootstraps swift-metrics with it.
    public static let shared: ServerMetrics = {
        let registry = PrometheusCollectorRegistry()
        let factory = PrometheusMetricsFactory(registry: registry)
        MetricsSystem.bootstrap(KeptHandlersFactory(backend: factory))
        return ServerMetrics(registry: registry, durationBuckets: factory.defaultDurationHistogramBuckets)
    }()

    let registry: PrometheusCollectorRegistry
    /// The buckets of the duration histograms, swift-metrics' Timers' too.
    private let durationBuckets: [Duration]
    /// The handlers made, by name followed by each label's name and value.
    private let counters = Mutex<[[String]: Prometheus.Counter]>([:])
    private let histograms = Mutex<[[String]: DurationHistogram]>([:])
    /// Operation names already given a label of their own, by tenant slug.
    private let operationNames = Mutex<[String: Set<String>]>([:])
    /// Distinct operation names a tenant's label may show; later ones count as `other`.
    static let maxOperationNamesPerTenant = 100

    private init(registry: PrometheusCollectorRegistry, durationBuckets: [Duration]) {
        self.registry = registry
        self.durationBuckets = durationBuckets
    }

    /// The counter `name` with `labels`, made on first use and kept.
    func counter(_ name: String, _ labels: [(String, String)]) -> Prometheus.Counter {
        let key = labels.reduce(into: [name]) { $0 += [$1.0, $1.1] }
        return counters.withLock { made in
            if let counter = made[key] { return counter }
            let counter = registry.makeCounter(descriptor: Self.descriptor(name), labels: labels)
            made[key] = counter
            return counter
        }
    }

    /// The duration histogram `name` with `labels` (the buckets of swift-metrics' Timers), made on
    /// first use and kept.
    func histogram(_ name: String, _ labels: [(String, String)]) -> DurationHistogram {
        let key = labels.reduce(into: [name]) { $0 += [$1.0, $1.1] }
        return histograms.withLock { made in
            if let histogram = made[key] { return histogram }
            let histogram = registry.makeDurationHistogram(descriptor: Self.descriptor(name), labels: labels, buckets: durationBuckets)
            made[key] = histogram
            return histogram
        }
    }

    /// The metrics in Prometheus's text format.
    public func text() -> String {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `name` whole, without help text (the descriptor skips the empty unit).
    private static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: "")
    }

    /// A GraphQL name (`[A-Za-z_][A-Za-z0-9_]*`) of at most 64 characters: safe in a label or a log line.
    static func isPlainName(_ name: String) -> Bool {
        // A byte loop, not a Regex: it runs for every request, twice (the metrics and the log).
        let bytes = name.utf8
        guard let first = bytes.first, bytes.count <= 64, isNameStart(first) else { return false }
        return bytes.allSatisfy(isNameContinue)
    }

    /// Whether `byte` may start a GraphQL name (`[A-Za-z_]`).
    static func isNameStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Whether `byte` may go on a GraphQL name (`[A-Za-z0-9_]`).
    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The label of a client-chosen operation name: the name itself when it looks like one
    /// (`[A-Za-z_][A-Za-z0-9_]*`, at most 64 characters) and is one of the first
    /// ``maxOperationNamesPerTenant`` the tenant's clients sent; `anonymous` without a name;
    /// `other` for anything else, so that clients cannot grow the metrics without end.
    func operationLabel(_ name: String?, tenant: String) -> String {
        guard let name, !name.isEmpty else { return "anonymous" }
        guard Self.isPlainName(name) else { return "other" }
        return operationNames.withLock { names in
            if names[tenant, default: []].contains(name) { return name }
            guard names[tenant, default: []].count < Self.maxOperationNamesPerTenant else { return "other" }
            names[tenant, default: []].insert(name)
            return name
        }
    }
}
