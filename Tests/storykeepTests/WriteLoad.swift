import AsyncHTTPClient
import Foundation
import NIOCore
import StorykeepTestSupport
import Synchronization
import Testing

/// `clients` clients of a young person, each creating entries with the same tags through a real
/// `storykeep serve` (or a load balancer in front of two) one after another until ``stop()``, each recording what the server answered:
/// the entries it acknowledged (an id in the answer, no error) and the errors, with when.
final class WriteLoad: Sendable {
    /// One answer: the acknowledged entry's id, or what went wrong.
    struct Answer: Sendable {
        var sent: ContinuousClock.Instant
        var at: ContinuousClock.Instant
        var entryID: String?
        var error: String?
    }

    static let create = "mutation($input: EntryInput!) { createEntry(input: $input) { id tags { id } } }"
    /// What every entry's text starts with, for finding them in the database.
    static let prefix = "load "

    /// What the clients share: whether to go on, and the answers so far.
    private final class Record: Sendable {
        let answers = Mutex<[Answer]>([])
        let running = Atomic<Bool>(true)
    }

    private let record = Record()
    private let clients: Task<Void, Never>

    /// `timeout`: how long a request may wait for its answer.
    init(server: any Served, slug: String, token: String, tagIDs: [String], clients count: Int, timeout: TimeAmount = .seconds(30)) {
        clients = WriteLoad.clients(count, while: { [record] in record.running.load(ordering: .relaxed) }) { [record] http, client, sent in
            let input: [String: Any] = [
                "date": "2026-11-20", "kind": "TEXT", "text": "\(Self.prefix)\(client)-\(sent)", "tagIds": tagIDs,
            ]
            var answer = Answer(sent: .now, at: .now)
            (answer.entryID, answer.error) = await Self.outcome {
                try await server.graphQL(slug: slug, token: token, Self.create, ["input": input], client: http, timeout: timeout)
            } acknowledged: { reply in
                (reply.data("createEntry", "tags") as? [Any])?.count == tagIDs.count ? reply.data("createEntry", "id") as? String : nil
            }
            answer.at = .now
            record.answers.withLock { $0.append(answer) }
        }
    }

    /// Creates the tags `names` of the person of `token` through `server`, one after another: their
    /// ids, for the entries of a load to carry.
    static func createTags(_ names: [String], on server: any Served, slug: String, token: String) async throws -> [String] {
        var tagIDs: [String] = []
        for name in names {
            let answer = try await server.graphQL(slug: slug, token: token, "mutation($n: String!) { createTag(name: $n) { id } }", ["n": name])
            tagIDs.append(try #require(answer.data("createTag", "id") as? String, "\(answer)"))
        }
        return tagIDs
    }

    /// `count` clients sharing one HTTP client of as many connections, each sending one request
    /// after another while `running()` holds: `send(http, client, sent)` sends the `sent`-th
    /// (from 1) of the client `client` (from 0) and records its answer. The task ends, the HTTP
    /// client shut down, once every client has stopped.
    static func clients(
        _ count: Int, while running: @escaping @Sendable () -> Bool,
        _ send: @escaping @Sendable (_ http: HTTPClient, _ client: Int, _ sent: Int) async -> Void
    ) -> Task<Void, Never> {
        Task {
            let http = client(connections: count)
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<count {
                    group.addTask {
                        var sent = 0
                        while running() {
                            sent += 1
                            await send(http, client, sent)
                        }
                    }
                }
            }
            try? await http.shutdown()
        }
    }

    /// What `request` came to: the id `acknowledged` finds in its answer; else the answer's
    /// errors, `unexpected answer: ...`, or `no answer: ...` (``describe(_:)``) when it threw.
    static func outcome(
        of request: () async throws -> ServedAnswer, acknowledged: (ServedAnswer) -> String?
    ) async -> (id: String?, error: String?) {
        do {
            let reply = try await request()
            if let errors = reply.errors { return (nil, errors) }
            if let id = acknowledged(reply) { return (id, nil) }
            return (nil, "unexpected answer: \(reply)")
        } catch {
            return (nil, "no answer: \(describe(error))")
        }
    }

    /// Asks `recovery` every 20 ms, for up to `limit` after `fault`, until it has an answer: its
    /// answer, or nil when `limit` passed without one.
    static func awaitRecovery(
        after fault: ContinuousClock.Instant, limit: Duration, _ recovery: () -> Duration?
    ) async throws -> Duration? {
        while ContinuousClock.now < fault + limit {
            if let recovery = recovery() { return recovery }
            try await Task.sleep(for: .milliseconds(20))
        }
        return recovery()
    }

    /// Each of `errors` once, with how many times it stands there.
    static func tally(_ errors: [String]) -> [String: Int] {
        errors.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    /// What went wrong when a request got no GraphQL answer, in a few words: `HTTP 502, ...`,
    /// `timed out`, `connection closed` (with no answer), `connection refused`.
    static func describe(_ error: any Error) -> String {
        if let error = error as? NotGraphQL { return error.description }
        guard let error = error as? HTTPClientError else { return "\(error)" }
        switch error {
        case .deadlineExceeded, .readTimeout: return "timed out"
        case .remoteConnectionClosed: return "connection closed"
        default: return "\(error)"
        }
    }

    /// An HTTP client of `connections` kept-alive connections to a host; the caller shuts it down.
    static func client(connections: Int) -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Stops sending and waits for the answers of what was sent.
    func stop() async {
        record.running.store(false, ordering: .relaxed)
        await clients.value
    }

    /// The ids of the entries the server acknowledged.
    var acknowledged: [String] { record.answers.withLock { $0.compactMap(\.entryID) } }

    /// Every error answered, once each with how many times.
    var errors: [String: Int] {
        Self.tally(record.answers.withLock { $0.compactMap(\.error) })
    }

    /// How long after `fault` the first entry sent after `sentAfter` (the fault's end: a
    /// request sent before may have been served before the fault) was acknowledged, or nil.
    func recovery(after fault: ContinuousClock.Instant, sentAfter: ContinuousClock.Instant) -> Duration? {
        record.answers.withLock { answers in answers.filter { $0.entryID != nil && $0.sent > sentAfter }.map(\.at).min() }
            .map { fault.duration(to: $0) }
    }

    /// The answers to requests sent before `instant` and answered after it: what was in flight then.
    func answers(spanning instant: ContinuousClock.Instant) -> [Answer] {
        record.answers.withLock { $0.filter { $0.sent < instant && $0.at > instant } }
    }

    /// Waits up to `limit` after `fault` for ``recovery(after:sentAfter:)``.
    func awaitRecovery(after fault: ContinuousClock.Instant, sentAfter: ContinuousClock.Instant, limit: Duration) async throws -> Duration? {
        try await Self.awaitRecovery(after: fault, limit: limit) { recovery(after: fault, sentAfter: sentAfter) }
    }
}
