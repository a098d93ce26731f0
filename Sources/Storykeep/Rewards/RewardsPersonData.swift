public import StorykeepCore

extension RewardsModule {
    /// stars.json, achievements.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("stars.json", about: "Every star you earned or spent, what it was for and when.", orderedBy: #"x."at""#, rows: """
                select r.day, r.stars, r.cause as "for", r.source_id as "rule", r.entry_id as "entryId", r.created_at as "at"
                from star_ledger r where r.tenant_id = current_tenant_id() and r.person_id = $1
                """),
            .array("achievements.json", about: "The achievements (badges) you earned.", orderedBy: #"x."earnedAt""#, rows: """
                select a.achievement_id as id, a.name, a.description, a.icon, a.stars, a.earned_at as "earnedAt"
                from reward_achievements a where a.tenant_id = current_tenant_id() and a.person_id = $1
                """)
        ]
    }
}
