import GraphQL
import HummingbirdTesting
import Synchronization

/// Judges responses as the fuzz pass wants them: every answer a 2xx, 3xx or 4xx, every GraphQL
/// error with an `extensions.code`, and none of them INTERNAL_SERVER_ERROR; and keeps what failed,
/// to print as a table of target × case.
final class FuzzFindings: Sendable {
    struct Finding: Sendable {
        /// Where the value went: `createEntry(input.date)`, `GET media/:id`.
        var target: String
        var caseName: String
        /// Who sent it and how: `young person, variable`.
        var how: String
        /// `HTTP 500`, `INTERNAL_SERVER_ERROR`, `error without code`, `no answer`.
        var problem: String
        /// What the server said, shortened.
        var example: String
    }

    private struct State {
        var findings: [Finding] = []
        var requests = 0
        /// The slowest requests, slowest first: not failures, but where a request holds the
        /// server longest.
        var slowest: [(took: Duration, what: String)] = []
    }

    private let state = Mutex(State())

    var all: [Finding] { state.withLock { $0.findings } }
    var requests: Int { state.withLock { $0.requests } }

    /// Judges one response and keeps the problem, if any.
    func judge(_ response: TestResponse, took: Duration, target: String, caseName: String, how: String) {
        judge(
            status: response.status.code, body: Array(response.body.readableBytesView), took: took, target: target, caseName: caseName,
            how: how)
    }

    /// Judges a response read off a socket; `status` 0 when the server closed without answering.
    func judge(status: Int, body: [UInt8], took: Duration, target: String, caseName: String, how: String) {
        record(Self.problem(status: status, body: body), took: took, target: target, caseName: caseName, how: how)
    }

    /// Keeps a request that got no answer at all (the connection closed, or it timed out).
    func noAnswer(_ error: any Error, took: Duration, target: String, caseName: String, how: String) {
        record(("no answer", "\(error)"), took: took, target: target, caseName: caseName, how: how)
    }

    private func record(
        _ problem: (kind: String, example: String)?, took: Duration, target: String, caseName: String, how: String
    ) {
        state.withLock { state in
            state.requests += 1
            if state.slowest.count < 3 || took > state.slowest[state.slowest.count - 1].took {
                state.slowest.append((took, "\(target) \(caseName) [\(how)]"))
                state.slowest.sort { $0.took > $1.took }
                state.slowest = Array(state.slowest.prefix(3))
            }
            guard let problem else { return }
            state.findings.append(
                Finding(target: target, caseName: caseName, how: how, problem: problem.kind, example: String(problem.example.prefix(120))))
        }
    }

    /// What is wrong with a response, or nil.
    static func problem(status: Int, body: [UInt8]) -> (kind: String, example: String)? {
        let json = try? GraphQLValue(json: body)
        let errors = json?["errors"]?.listValue ?? []
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        if status >= 500 { return ("HTTP \(status)", text) }
        for error in errors {
            let message = error["message"]?.stringValue ?? ""
            switch error["extensions"]?["code"]?.stringValue {
            case nil: return ("error without code", message)
            case "INTERNAL_SERVER_ERROR": return ("INTERNAL_SERVER_ERROR", message)
            default: continue
            }
        }
        return nil
    }

    /// The findings grouped by target and problem, each with the cases that showed it (and who
    /// sent them, how), one line a group.
    var table: String {
        let (findings, requests, slowest) = state.withLock { ($0.findings, $0.requests, $0.slowest) }
        let slow = "slowest: " + slowest.map { "\($0.what) \($0.took.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))" }
            .joined(separator: "; ")
        guard !findings.isEmpty else { return "fuzz: no failures in \(requests) requests; \(slow)" }
        var groups: [(key: String, cases: [String: Set<String>], example: String)] = []
        for finding in findings {
            let key = finding.target + " | " + finding.problem
            if let index = groups.firstIndex(where: { $0.key == key }) {
                groups[index].cases[finding.caseName, default: []].insert(finding.how)
            } else {
                groups.append((key, [finding.caseName: [finding.how]], finding.example))
            }
        }
        var lines = ["fuzz: \(findings.count) failures in \(requests) requests, \(groups.count) target × problem groups; \(slow)"]
        for group in groups {
            let cases = group.cases.keys.sorted().map { name in "\(name) [\(group.cases[name]!.sorted().joined(separator: "; "))]" }
            lines.append("  \(group.key) | \(cases.joined(separator: ", "))")
            lines.append("      e.g. \(group.example.replacingOccurrences(of: "\n", with: " "))")
        }
        return lines.joined(separator: "\n")
    }
}
