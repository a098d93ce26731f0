public import StorykeepCore

extension SafetyModule {
    /// safety-alerts.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("safety-alerts.json", about: "Each time you asked for help with the safety button: your message, when, and what the adults did about it.", orderedBy: #"x."raisedAt""#, rows: """
                select a.id, a.message, a.raised_at as "raisedAt", a.status, a.acknowledged_at as "acknowledgedAt", a.resolved_at as "resolvedAt",
                       a.escalated_at as "escalatedAt"
                from safety_alerts a where a.tenant_id = current_tenant_id() and a.young_person_id = $1
                """)
        ]
    }
}
