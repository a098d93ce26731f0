import Postgres
import StorykeepCore

/// The mood icons a person checks in with: their own (chosen in their profile), or the tenant's
/// (`moodIcons` of the tenant file) when they have chosen none.
public enum MoodIcons {
    /// The person's mood icons: one statement.
    public static func current(defaults: [MoodIcon], on database: some PostgresQueryable) async throws -> [MoodIcon] {
        let rows = try await database.query(
            """
            select pr.mood_icons from profiles pr
            where pr.tenant_id = current_tenant_id() and pr.person_id = current_person_id()
            """)
        return try rows.first?.decode(PostgresJSON<[MoodIcon]>?.self, at: 0)?.value ?? defaults
    }
}
