import Postgres

/// The outcome of a statement: the rows it returned or changed, or the SQLSTATE it failed with.
public enum Outcome: Equatable, CustomStringConvertible, Sendable {
    case rows(Int)
    case failed(String)

    public var description: String {
        switch self {
        case .rows(let count): "\(count) rows"
        case .failed(let state): "error \(state)"
        }
    }
}

extension PostgresPool {
    /// Runs one statement with `settings` (a person's context, say), in a transaction rolled back
    /// afterwards, and reports its outcome: what a policy lets through, without changing anything.
    public func attempt(_ settings: [String: String], _ sql: String, _ parameters: [(any PostgresEncodable)?]) async -> Outcome {
        struct Undo: Error { let count: Int }
        do {
            try await transaction(settings: settings) { tx in
                let rows = try await tx.query(sql, parameters: parameters)
                throw Undo(count: max(rows.count, rows.affectedRows))
            }
            return .failed("no rollback")
        } catch let undo as Undo {
            return .rows(undo.count)
        } catch let error as PostgresError {
            return .failed(error.sqlState ?? "\(error.kind)")
        } catch {
            return .failed("\(error)")
        }
    }
}
