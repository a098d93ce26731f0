public import StorykeepCore

extension NotificationsModule {
    /// notifications.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("notifications.json", about: "The messages the app showed you (notifications), and when you read them.", orderedBy: #"x."at""#, rows: """
                select n.id, n.kind, n.title, n.created_at as "at", n.read_at as "readAt"
                from notifications n where n.tenant_id = current_tenant_id() and n.recipient_id = $1
                """)
        ]
    }
}
