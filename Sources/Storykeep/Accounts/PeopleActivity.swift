import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// When each person was last seen (`Person.lastSeenAt`), for agency admins' list of people: the
/// last use of any of their sessions. One statement per page of `people`, whatever its length;
/// each person is one probe of the index `sessions_person_seen`
/// (Migrations/0044_social_admin_people.sql), read backwards for its maximum.
enum PeopleActivity {
    static let lastSeen = DataLoader<UUID, String?>.inTransaction("Person.lastSeenAt") { ids, _, tx in
        var seen: [UUID: Date] = [:]
        for row in try await tx.query(lastSeenStatement, ids) {
            if let date = try row.decode(Date?.self, at: 1) { seen[try row.decode(UUID.self, at: 0)] = date }
        }
        return ids.map { seen[$0].map(DateTimeScalar.string) }
    }

    /// The last use of a session of each of the people $1 (uuid[]) the reader sees the sessions
    /// of (an admin: everyone's; anyone else: their own).
    static let lastSeenStatement = """
        select x.id, (select max(s.last_used_at) from sessions s where s.tenant_id = current_tenant_id() and s.person_id = x.id)
        from unnest($1::uuid[]) as x (id)
        """

    /// Registers `Person.lastSeenAt`: an agency admin's reading (null for anyone else).
    static func register(_ module: inout ModuleRegistry) {
        module.field("Person.lastSeenAt", .sync { source, _, context, info in
            guard (context as? ResolverContext)?.viewer?.role == .agencyAdmin,
                let id = (source as? GraphQLValue)?["id"]?.stringValue.flatMap(UUID.init(uuidString:))
            else { return nil }
            return Self.lastSeen.load(id, info)
        })
    }
}
