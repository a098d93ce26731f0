public import StorykeepCore

extension AuditModule {
    /// audit-events.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("audit-events.json", about: "The record the agency keeps of things done about you: logins, who read what you shared, when it went to your case record, changes to who looks after you. Each line has who did it (an id), what, and when.", orderedBy: #"x."at", x.id"#, rows: """
                select a.id, a.occurred_at as "at", a.action, a.actor_person_id as "byPersonId", a.actor_client_id as "byCaseSystemId",
                       a.subject_id as "aboutId"
                from audit_events a where a.tenant_id = current_tenant_id() and a.subject_person_id = $1
                """)
        ]
    }
}
