import Foundation
public import StorykeepCore

extension NotificationsModule {
    /// The module's part of a person's data export: notifications.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("notifications.json", about: "The messages the app showed you (notifications), and when you read them.", NotificationsPersonData.notifications)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum NotificationsPersonData {
    /// notifications.json: the rows of the person $1, as JSON.
    static let notifications = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."at"), '[]'::jsonb)) from (
            select n.id, n.kind, n.title, n.created_at as "at", n.read_at as "readAt"
            from notifications n where n.tenant_id = current_tenant_id() and n.recipient_id = $1
        ) x
        """
}
