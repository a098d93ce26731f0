import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// What agency admins read of each person in `people` while the social module is on
/// (`Person.postCount`, `Person.openReports`): one statement per page for each, whatever its
/// length, each person an index probe (Migrations/0044_social_admin_people.sql says which).
extension SocialModule {
    static let postCounts = DataLoader<UUID, Int>.inTransaction("Person.postCount") { ids, _, tx in
        try await counts(SocialAdminStatements.postCounts, ids, in: tx)
    }
    static let openReportCounts = DataLoader<UUID, Int>.inTransaction("Person.openReports") { ids, _, tx in
        try await counts(SocialAdminStatements.openReports, ids, in: tx)
    }

    /// The count `statement` gives each of `ids` (rows of id and count; none is 0).
    private static func counts(_ statement: String, _ ids: [UUID], in tx: PostgresTransaction) async throws -> [Int] {
        var counts: [UUID: Int] = [:]
        for row in try await tx.query(statement, ids) { counts[try row.decode(UUID.self, at: 0)] = try row.decode(Int.self, at: 1) }
        return ids.map { counts[$0] ?? 0 }
    }

    func registerAdminPeople(_ module: inout ModuleRegistry) {
        for (field, loader) in [("Person.postCount", Self.postCounts), ("Person.openReports", Self.openReportCounts)] {
            module.field(field, .sync { source, _, context, info in
                guard (context as? ResolverContext)?.viewer?.role == .agencyAdmin,
                    let id = (source as? GraphQLValue)?["id"]?.stringValue.flatMap(UUID.init(uuidString:))
                else { return nil }
                return loader.load(id, info)
            })
        }
    }
}

/// The SQL of the admins' people columns; $1 the people (uuid[]).
enum SocialAdminStatements {
    /// Each person's posts, not deleted, as the moderating admin reads them.
    static let postCounts = """
        select x.id, (select count(*) from social_posts p where p.tenant_id = current_tenant_id() and p.author_id = x.id and p.deleted_at is null)
        from unnest($1::uuid[]) as x (id)
        """

    /// The open reports of each person's posts and comments (people with none are left out).
    static let openReports = """
        select coalesce(p.author_id, c.author_id), count(*)
        from social_reports r
        left join social_posts p on p.tenant_id = r.tenant_id and p.id = r.post_id
        left join social_comments c on c.tenant_id = r.tenant_id and c.id = r.comment_id
        where r.tenant_id = current_tenant_id() and r.resolved_at is null and coalesce(p.author_id, c.author_id) = any($1::uuid[])
        group by 1
        """
}
