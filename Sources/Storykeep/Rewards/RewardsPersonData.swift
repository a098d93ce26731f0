import Foundation
public import StorykeepCore

extension RewardsModule {
    /// The module's part of a person's data export: stars.json, achievements.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("stars.json", about: "Every star you earned or spent, what it was for and when.", RewardsPersonData.stars),
            try await subject.json("achievements.json", about: "The achievements (badges) you earned.", RewardsPersonData.achievements)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum RewardsPersonData {
    /// stars.json: the rows of the person $1, as JSON.
    static let stars = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."at"), '[]'::jsonb)) from (
            select r.day, r.stars, r.cause as "for", r.source_id as "rule", r.entry_id as "entryId", r.created_at as "at"
            from star_ledger r where r.tenant_id = current_tenant_id() and r.person_id = $1
        ) x
        """

    /// achievements.json: the rows of the person $1, as JSON.
    static let achievements = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."earnedAt"), '[]'::jsonb)) from (
            select a.achievement_id as id, a.name, a.description, a.icon, a.stars, a.earned_at as "earnedAt"
            from reward_achievements a where a.tenant_id = current_tenant_id() and a.person_id = $1
        ) x
        """
}
