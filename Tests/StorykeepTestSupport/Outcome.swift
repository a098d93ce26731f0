import Postgres

/// The outcome of a statement: the rows it returned or changed, or the SQLSTATE it failed with
/// (and the constraint, where asked).
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
    /// With `namingConstraint`, a failure that names a constraint (or a trigger's) says it after
    /// the SQLSTATE (`23514 assignments_role_fit`), to tell one check from another.
    public func attempt(
        _ settings: [String: String], _ sql: String, _ parameters: [(any PostgresEncodable)?], namingConstraint: Bool = false
    ) async -> Outcome {
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
            let state = error.sqlState ?? "\(error.kind)"
            return .failed(namingConstraint ? ([state] + [error.constraintName].compactMap { $0 }).joined(separator: " ") : state)
        } catch {
            return .failed("\(error)")
        }
    }
}
