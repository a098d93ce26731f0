import Tracing

/// Each statement a connection runs is a client span of swift-distributed-tracing's bootstrapped
/// tracer, in the caller's trace (the GraphQL request's `graphql.execute`, say), as
/// OpenTelemetry's database conventions name it: `db.query.summary` as the span's name
/// (`SELECT entries`, `INSERT journal_entries`, `BEGIN`), `db.system.name` (`postgresql`) and
/// `db.query.text`, the statement's text, which holds `$1`, `$2`, ... and never a value (values
/// only travel as bound parameters). A failed statement's span has an error status and
/// `db.response.status_code` (the SQLSTATE), not the server's message, which may quote a value.
///
/// Without a tracer (the default) the span is a no-op and nothing here is computed.
enum StatementSpan {
    static func run<T>(_ sql: @autoclosure () -> String, _ body: () async throws -> T) async throws -> T {
        let span = startSpan("postgresql", ofKind: .client)
        defer { span.end() }
        if span.isRecording {
            let text = sql()
            span.operationName = summary(of: text)
            span.attributes["db.system.name"] = "postgresql"
            span.attributes["db.query.text"] = text
        }
        do {
            return try await body()
        } catch {
            span.setStatus(SpanStatus(code: .error))
            if span.isRecording, let state = (error as? PostgresError)?.sqlState { span.attributes["db.response.status_code"] = state }
            throw error
        }
    }

    /// A statement's low-cardinality name: its command (`SELECT`, `INSERT`, `BEGIN`...; for a
    /// `WITH`, the first `INSERT`, `UPDATE` or `DELETE` in it, else `SELECT`) and the first table
    /// it reads or writes, the word after its first `FROM`, `INTO`, `UPDATE` or `JOIN`, when it
    /// has one. Of statements sent together (`BEGIN; SELECT set_config(...); ...`), the first's.
    static func summary(of sql: String) -> String {
        let words = sql.prefix { $0 != ";" }.split(whereSeparator: { $0.isWhitespace || $0 == "(" || $0 == ")" || $0 == "," || $0 == ";" })
        guard var command = words.first?.uppercased() else { return "postgresql" }
        if command == "WITH" {
            let writes: Set = ["INSERT", "UPDATE", "DELETE"]
            command = words.lazy.map { $0.uppercased() }.first(where: writes.contains) ?? "SELECT"
        }
        let tableKeywords: Set = ["FROM", "INTO", "UPDATE", "JOIN"]
        guard let keyword = words.firstIndex(where: { tableKeywords.contains($0.uppercased()) }), keyword + 1 < words.count else {
            return command
        }
        let table = words[keyword + 1]
        guard table.first.map({ $0.isLetter || $0 == "_" || $0 == "\"" }) == true else { return command }
        return "\(command) \(table)"
    }
}
