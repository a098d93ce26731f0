import Foundation
public import StorykeepCore

extension AuditModule {
    /// The module's part of a person's data export: audit-events.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("audit-events.json", about: "The record the agency keeps of things done about you: logins, who read what you shared, when it went to your case record, changes to who looks after you. Each line has who did it (an id), what, and when.", AuditPersonData.events)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum AuditPersonData {
    /// audit-events.json: the rows of the person $1, as JSON.
    static let events = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."at", x.id), '[]'::jsonb)) from (
            select a.id, a.occurred_at as "at", a.action, a.actor_person_id as "byPersonId", a.actor_client_id as "byCaseSystemId",
                   a.subject_id as "aboutId"
            from audit_events a where a.tenant_id = current_tenant_id() and a.subject_person_id = $1
        ) x
        """
}
