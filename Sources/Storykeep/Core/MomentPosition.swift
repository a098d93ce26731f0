public import Foundation
public import Postgres

/// A position in a list ordered by a moment, then an id (the people by `(created_at, id)`, the
/// archive by `(archived_at, id)`, ...): its cursor's fields are the moment, exactly, in
/// microseconds since 2000, and the id. A list's position conforms with its own names for the
/// two and its own ``CursorPosition/list``.
public protocol MomentPosition: CursorPosition {
    /// The moment, exactly, to the microsecond.
    var moment: PostgresTimestamp { get }
    var id: UUID { get }

    init(moment: PostgresTimestamp, id: UUID)
}

extension MomentPosition {
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
