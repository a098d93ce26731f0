import Foundation
public import StorykeepCore
import Postgres

/// A place in the order of `people`, (created_at, id), both ascending: what its cursors hold.
public struct PersonPosition: MomentPosition, Hashable {
    /// `created_at` exactly, to the microsecond.
    public var createdAt: PostgresTimestamp
    public var id: UUID

    public static var list: String { "people" }

    public var moment: PostgresTimestamp { createdAt }

    public init(createdAt: PostgresTimestamp, id: UUID) {
        self.createdAt = createdAt
        self.id = id
    }

    public init(moment: PostgresTimestamp, id: UUID) {
        self.init(createdAt: moment, id: id)
    }
}
