import Foundation
import HTTPTestSupport
import StorykeepTestSupport
import Testing

/// Storykeep behind PgBouncer in transaction mode (issue 18: a national deployment pools its
/// connections): each transaction may run on a different server connection, so nothing of a
/// request may live in the session. With `database.preparedStatements: false` and its listener
/// straight to PostgreSQL (`database.listenUrl`), a server whose eight connections share two of
/// PostgreSQL's serves two young people at once, each their own journal and nothing of the other's.
@Suite struct PgBouncerTests {
    static let write = "mutation($t: String!) { createEntry(input: { date: \"2026-11-01\", kind: TEXT, text: $t }) { id } }"
    static let read = "{ entries(first: 100) { edges { node { text } } } }"

    @Test func aServerBehindPgBouncerInTransactionModeKeepsEachRequestToItself() async throws {
        try TestDatabase.requireEnvironment()
        try await withAccounts { h in
            let (sam, alex) = try await (h.cast(.sam), h.cast(.alex))
            let bouncer = try await PgBouncer(serverConnections: 2)
            defer { bouncer.stop() }
            let server = try await ServeProcess(environment: [
                "DATABASE_URL": bouncer.url, "STORYKEEP_DATABASE_PREPARED_STATEMENTS": "false",
                "STORYKEEP_DATABASE_LISTEN_URL": bouncer.directURL, "STORYKEEP_DATABASE_POOL_SIZE": "8",
            ])
            defer { server.stop() }
            let slug = h.tenant.file.slug

            // 2 × 30 writes at once, each a transaction of several statements on whichever
            // server connection PgBouncer lends it.
            let results = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for i in 0..<30 {
                    for (name, token) in [("sam", sam.token), ("alex", alex.token)] {
                        group.addTask {
                            let text = "\(name) entry \(i)"
                            let answer = try await server.graphQL(slug: slug, token: token, Self.write, ["t": text])
                            return (text, answer.errors)
                        }
                    }
                }
                return try await group.reduce(into: [(String, String?)]()) { $0.append($1) }
            }
            #expect(results.compactMap(\.1) == [], "every write succeeds")
            for (name, token) in [("sam", sam.token), ("alex", alex.token)] {
                let texts = try await server.graphQL(slug: slug, token: token, Self.read).texts
                #expect(Set(texts) == Set((0..<30).map { "\(name) entry \($0)" }), "\(name) reads all of theirs and nothing else")
            }
            // A refused request leaves no context behind for the next on the same connection.
            let anonymous = try await server.graphQL(slug: slug, token: nil, Self.read)
            #expect(anonymous.errors?.contains("UNAUTHENTICATED") == true, "\(anonymous)")
        }
    }
}

/// Debian's PgBouncer in transaction mode in front of the test database, on a free loopback port,
/// with at most `serverConnections` connections to PostgreSQL, until ``stop()``. As root it runs as
/// the `postgres` user (it refuses root), like the test cluster itself.
final class PgBouncer: @unchecked Sendable {  // set once, when it starts
    /// The app role through PgBouncer.
    let url: String
    /// The app role straight to PostgreSQL (the test database's `DATABASE_URL`).
    let directURL: String
    private let process: Process
    private let directory: URL

    init(serverConnections: Int) async throws {
        let executable = "/usr/sbin/pgbouncer"
        try #require(FileManager.default.isExecutableFile(atPath: executable), "PgBouncer is missing: scripts/deps.sh --python installs it")
        directURL = try #require(ProcessInfo.processInfo.environment["DATABASE_URL"])
        let parts = try #require(directURL.wholeMatch(of: /postgresql:\/\/([^:]+):([^@]+)@([^:\/]+):([0-9]+)\/(.+)/), "\(directURL)")
        let (user, password, database) = (String(parts.1), String(parts.2), String(parts.5))
        let socketDirectory = try #require(String(parts.3).removingPercentEncoding)
        let taken = try TakenPort()
        let port = taken.port
        taken.close()
        directory = URL(fileURLWithPath: "/tmp/storykeep-pgbouncer-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try """
            [databases]
            \(database) = host=\(socketDirectory) port=\(parts.4) dbname=\(database)
            [pgbouncer]
            listen_addr = 127.0.0.1
            listen_port = \(port)
            unix_socket_dir =
            auth_type = scram-sha-256
            auth_file = \(directory.path)/users.txt
            pool_mode = transaction
            default_pool_size = \(serverConnections)
            max_client_conn = 100
            pidfile = \(directory.path)/pgbouncer.pid
            logfile = \(directory.path)/pgbouncer.log

            """.write(to: directory.appending(path: "pgbouncer.ini"), atomically: true, encoding: .utf8)
        try "\"\(user)\" \"\(password.removingPercentEncoding ?? password)\"\n"
            .write(to: directory.appending(path: "users.txt"), atomically: true, encoding: .utf8)
        process = Process()
        if getuid() == 0 {
            _ = try await runProcess(["chown", "-R", "postgres:", directory.path])
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "postgres", "--", executable, directory.appending(path: "pgbouncer.ini").path]
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = [directory.appending(path: "pgbouncer.ini").path]
        }
        try process.run()
        url = "postgresql://\(user):\(password)@127.0.0.1:\(port)/\(database)"
        for _ in 0..<100 where !loopbackPortAnswers(port) { try await Task.sleep(for: .milliseconds(50)) }
        try #require(loopbackPortAnswers(port), "PgBouncer did not start: \((try? String(contentsOf: directory.appending(path: "pgbouncer.log"), encoding: .utf8)) ?? "")")
    }

    /// SIGTERM, and removes its folder without waiting for it to exit (it needs the folder no
    /// more; a `defer` would hold a thread of the concurrency pool meanwhile).
    func stop() {
        process.terminate()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
private func loopbackPortAnswers(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { _ = Glibc.close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}
