public import Logging
public import ServiceLifecycle
public import Storykeep
import Synchronization

/// Where the server reads tenants from: the `tenants` table, through ``TenantStore``.
public protocol TenantSource: Sendable {
    func loadTenants(logger: Logger) async throws -> [Tenant]
}

extension TenantStore: TenantSource {
    /// The tenants whose stored configuration is valid; the others are logged and not served.
    public func loadTenants(logger: Logger) async throws -> [Tenant] {
        try await all { slug, problem in
            logger.error("Tenant not served: invalid configuration", metadata: ["tenant": "\(slug)", "problem": "\(problem)"])
        }
    }
}

/// The server's view of the enabled tenants, by slug and by host, so that routing a request
/// costs no database round trip.
///
/// Run as a service, it re-reads the tenants every `refreshInterval`. A request naming a slug it
/// does not know makes it re-read at once — at most once per `missInterval`, and concurrent
/// misses share one read — so a tenant just applied is served without waiting, and requests
/// for made-up slugs cannot turn into a query each. While a read is under way, the callers that
/// need a newer one (a change was just notified) share one read queued after it. Host lookups
/// never re-read on a miss: most requests come on hosts that are no tenant's (`127.0.0.1`), and
/// hosts change rarely.
///
/// After a failed read (the database is down) no read is tried for `missInterval`: lookups answer
/// from the last snapshot, or fail at once when there is none, rather than each request waiting
/// on a connection attempt.
public final class TenantCache: Service, Sendable {
    struct Snapshot: Sendable {
        var bySlug: [String: Tenant] = [:]
        var byHost: [String: Tenant] = [:]
        var loadedAt: ContinuousClock.Instant

        init(_ tenants: [Tenant], at instant: ContinuousClock.Instant) {
            loadedAt = instant
            for tenant in tenants where tenant.enabled {
                bySlug[tenant.slug] = tenant
                for host in tenant.hosts { byHost[host] = tenant }
            }
        }
    }

    /// A read under way, and when it started: what it returns is no older than that.
    private struct Loading {
        let task: Task<Snapshot, any Error>
        let startedAt: ContinuousClock.Instant
    }

    private struct State {
        var snapshot: Snapshot?
        var loading: Loading?
        /// A read to start when `loading` ends, for the callers that need a newer one: they all
        /// share it, so a burst of changes costs two reads rather than one each.
        var queued: Task<Snapshot, any Error>?
        /// When the last read failed; for `missInterval` after it no read is tried again.
        var failedAt: ContinuousClock.Instant?
    }

    private let source: any TenantSource
    private let refreshInterval: Duration
    private let missInterval: Duration
    private let logger: Logger
    private let state = Mutex(State())

    public init(source: any TenantSource, refreshInterval: Duration, missInterval: Duration = .seconds(1), logger: Logger) {
        self.source = source
        self.refreshInterval = refreshInterval
        self.missInterval = missInterval
        self.logger = logger
    }

    /// The enabled tenant with this slug, re-reading the tenants on a miss.
    public func tenant(slug: String) async throws -> Tenant? {
        if let tenant = try await snapshot(maxAge: nil).bySlug[slug] { return tenant }
        return try await snapshot(maxAge: missInterval).bySlug[slug]
    }

    /// The enabled tenant answering on this host (lowercase, without port).
    public func tenant(host: String) async throws -> Tenant? {
        try await snapshot(maxAge: nil).byHost[host]
    }

    /// The enabled tenants, by slug.
    public func all() async throws -> [Tenant] {
        try await snapshot(maxAge: nil).bySlug.values.sorted { $0.slug < $1.slug }
    }

    /// Re-reads the tenants now: a read already under way that started earlier does not do, since
    /// it may have begun before the change the caller was told of (``DatabaseListenerService``).
    public func refresh() async throws {
        _ = try await snapshot(maxAge: .zero)
    }

    /// Re-reads the tenants every `refreshInterval` until graceful shutdown. A failed read is
    /// logged and the last good snapshot kept: a database blip must not take every tenant away.
    public func run() async throws {
        await runRounds(every: refreshInterval) {
            try await refresh()
        } failed: { error in
            logger.warning("Could not refresh tenants", metadata: ["error": "\(error)"])
        }
    }

    /// A snapshot no older than `maxAge` (any snapshot when nil), reading the tenants if needed;
    /// concurrent callers share one read when it is recent enough. A snapshot's age is counted from
    /// when its read started, and a newer one is never replaced by an older read ending later.
    private func snapshot(maxAge: Duration?) async throws -> Snapshot {
        enum Lookup {
            case ready(Snapshot)
            case loading(Task<Snapshot, any Error>)
            case failedRecently
        }
        let now = ContinuousClock.now
        let lookup: Lookup = state.withLock { state in
            if let snapshot = state.snapshot, maxAge.map({ snapshot.loadedAt.duration(to: now) < $0 }) ?? true {
                return .ready(snapshot)
            }
            if let failedAt = state.failedAt, failedAt.duration(to: now) < missInterval {
                return state.snapshot.map(Lookup.ready) ?? .failedRecently
            }
            if let loading = state.loading, maxAge.map({ loading.startedAt.duration(to: now) < $0 }) ?? true {
                return .loading(loading.task)
            }
            // A queued read starts after the one under way ends, so after this call.
            if let queued = state.queued { return .loading(queued) }
            if let current = state.loading {
                let queued = Task { [self] in
                    _ = try? await current.task.value
                    let startedAt = ContinuousClock.now
                    self.state.withLock { state in
                        if let queued = state.queued { state.loading = Loading(task: queued, startedAt: startedAt) }
                        state.queued = nil
                    }
                    return Snapshot(try await source.loadTenants(logger: logger), at: startedAt)
                }
                state.queued = queued
                return .loading(queued)
            }
            let loading = Task { [source, logger] in Snapshot(try await source.loadTenants(logger: logger), at: now) }
            state.loading = Loading(task: loading, startedAt: now)
            return .loading(loading)
        }
        switch lookup {
        case .ready(let snapshot):
            return snapshot
        case .failedRecently:
            throw TenantCacheError.unavailable
        case .loading(let task):
            do {
                let snapshot = try await task.value
                state.withLock { state in
                    if state.loading?.task == task { state.loading = nil }
                    state.failedAt = nil
                    if state.snapshot.map({ $0.loadedAt < snapshot.loadedAt }) ?? true { state.snapshot = snapshot }
                }
                return snapshot
            } catch {
                state.withLock { state in
                    if state.loading?.task == task {
                        state.loading = nil
                        state.failedAt = .now
                    }
                }
                throw error
            }
        }
    }
}

/// The tenants could not be read a moment ago, and are not read again yet.
public enum TenantCacheError: Error {
    case unavailable
}
