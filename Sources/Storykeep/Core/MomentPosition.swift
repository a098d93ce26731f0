public import Foundation
public import Postgres

/// A list ordered by a moment, then an id (the people by `(created_at, id)`, the archive by
/// `(archived_at, id)`, ...): its name in cursors, which a ``MomentPosition`` takes.
public protocol MomentOrderedList: Sendable {
    /// The list's name inside its cursors (``CursorPosition/list``).
    static var name: String { get }
}

/// A position in a list ordered by a moment, then an id: its cursor's fields are the moment,
/// exactly, in microseconds since 2000, and the id. Each list names its own
/// (`typealias PersonPosition = MomentPosition<PeopleList>`), so a cursor of one list is refused by
/// every other.
public struct MomentPosition<List: MomentOrderedList>: CursorPosition, Hashable {
    /// The moment, exactly, to the microsecond.
    public var moment: PostgresTimestamp
    public var id: UUID

    public init(moment: PostgresTimestamp, id: UUID) {
        self.moment = moment
        self.id = id
    }

    public static var list: String { List.name }

    public var fields: [String] { [String(moment.microsecondsSince2000), id.lowercased] }

    public init?(fields: [Substring]) {
        guard fields.count == 2, let moment = Int64(fields[0]).flatMap(PostgresTimestamp.init(microsecondsSince2000:)),
            let id = UUID(uuidString: String(fields[1]))
        else { return nil }
        self.init(moment: moment, id: id)
    }

    /// Past the newest row (the last moment PostgreSQL has, the greatest id): where the first
    /// page of a newest-first list starts, so that its statement always bounds its scan by a
    /// position rather than by "none".
    public static var pastNewest: Self {
        Self(moment: .latest, id: UUID(uuidString: "ffffffff-ffff-ffff-ffff-ffffffffffff")!)
    }
}
