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

    /// A JSON file from `statement`, which returns one row and one text column (JSON, built by
    /// PostgreSQL: `jsonb_pretty(coalesce(jsonb_agg(...), '[]'))`), with the person's id as $1.
    public func json(_ path: String, about: String, _ statement: String) async throws -> PersonDataFile {
        let text = try await transaction.query(statement, personID).first?.decode(String.self, at: 0) ?? "[]"
        return PersonDataFile(path: path, bytes: Array((text + "\n").utf8), about: about)
    }
}
