import Foundation
public import StorykeepCore
import Postgres

/// A place in the order of `people`, (created_at, id), both ascending: what its cursors hold.
public struct PersonPosition: CursorPosition, Hashable {
    /// `created_at` exactly, to the microsecond.
    public var createdAt: PostgresTimestamp
    public var id: UUID

    public static var list: String { "people" }

    public var fields: [String] { [String(createdAt.microsecondsSince2000), id.uuidString.lowercased()] }

    public init(createdAt: PostgresTimestamp, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }

    public init?(fields: [Substring]) {
        guard fields.count == 2, let createdAt = Int64(fields[0]).flatMap(PostgresTimestamp.init(microsecondsSince2000:)),
            let id = UUID(uuidString: String(fields[1]))
        else { return nil }
        self.init(createdAt: createdAt, id: id)
    }
}
