import Foundation
public import StorykeepCore

extension SafetyModule {
    /// The module's part of a person's data export: safety-alerts.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("safety-alerts.json", about: "Each time you asked for help with the safety button: your message, when, and what the adults did about it.", SafetyPersonData.alerts)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum SafetyPersonData {
    /// safety-alerts.json: the rows of the person $1, as JSON.
    static let alerts = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."raisedAt"), '[]'::jsonb)) from (
            select a.id, a.message, a.raised_at as "raisedAt", a.status, a.acknowledged_at as "acknowledgedAt", a.resolved_at as "resolvedAt",
                   a.escalated_at as "escalatedAt"
            from safety_alerts a where a.tenant_id = current_tenant_id() and a.young_person_id = $1
        ) x
        """
}
