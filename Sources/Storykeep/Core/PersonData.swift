public import Foundation
public import Postgres

/// One file of a person's data export (the right of access, the privacy module): its path in the
/// ZIP and its bytes.
public struct PersonDataFile: Sendable, Equatable {
    /// `entries.json`, `media/<id>.jpg`.
    public var path: String
    public var bytes: [UInt8]
    /// What the file holds, in plain words a young person can read, for the ZIP's README.txt;
    /// nil for a file that another file's words already explain (each media file).
    public var about: String?

    public init(path: String, bytes: [UInt8], about: String?) {
        self.path = path
        self.bytes = bytes
        self.about = about
    }
}

/// The person whose data a module writes into an export, and the transaction to read it in: the
/// person's own context, so that the export holds what the database lets them see of themselves,
/// nothing of anyone else's (an admin's subject access request reads as the person too).
public struct PersonDataSubject: Sendable {
    public var tenant: Tenant
    public var personID: UUID
    public var role: PersonRole
    public var transaction: PostgresTransaction

    public init(tenant: Tenant, personID: UUID, role: PersonRole, transaction: PostgresTransaction) {
        self.tenant = tenant
        self.personID = personID
        self.role = role
        self.transaction = transaction
    }

    /// The files of `queries`, in order, each one statement.
    public func files(_ queries: [PersonDataQuery]) async throws -> [PersonDataFile] {
        var files: [PersonDataFile] = []
        for query in queries {
            let text = try await transaction.query(query.statement, personID).first?.decode(String.self, at: 0)
            files.append(PersonDataFile(path: query.path, bytes: Array(((text ?? query.empty) + "\n").utf8), about: query.about))
        }
        return files
    }
}

/// One JSON file of a person's data export, read by one statement in the person's own context:
/// `rows` selects what the file holds, with the person's id as $1, and PostgreSQL writes the JSON
/// (each column a key, named as the file's reader should see it).
public struct PersonDataQuery: Sendable {
    /// How the rows become the file: one JSON object, or an array in a stated order.
    public enum Shape: Sendable {
        /// The single row as an object (`account.json`).
        case object
        /// Every row, in the order of this expression over the row `x` (`x."createdAt", x.id`).
        case array(orderedBy: String)
    }

    public var path: String
    /// What the file holds, in plain words a young person can read (the ZIP's README.txt).
    public var about: String
    public var shape: Shape
    public var rows: String

    /// A file of every row of `rows`, in the order of `orderedBy`.
    public static func array(_ path: String, about: String, orderedBy: String, rows: String) -> PersonDataQuery {
        PersonDataQuery(path: path, about: about, shape: .array(orderedBy: orderedBy), rows: rows)
    }

    /// A file of the one row of `rows`.
    public static func object(_ path: String, about: String, rows: String) -> PersonDataQuery {
        PersonDataQuery(path: path, about: about, shape: .object, rows: rows)
    }

    var statement: String {
        switch shape {
        case .object: "select jsonb_pretty(to_jsonb(x)) from (\n\(rows)\n) x"
        case .array(let order): "select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by \(order)), '[]'::jsonb)) from (\n\(rows)\n) x"
        }
    }

    /// The file when the statement finds nothing at all.
    var empty: String {
        switch shape {
        case .object: "{}"
        case .array: "[]"
        }
    }
}
