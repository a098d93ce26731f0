/// The SQL of notifications: what `NotificationStore` reads and marks for the person the
/// transaction runs as, and what `Notifications.notify` writes. Values only as the parameters
/// listed above each statement. A statement that returns notifications selects ``columns``.
///
/// The lists are newest first by (created_at, id), and their position is always a value (the
/// cursor's, or `NotificationPosition.pastNewest` for the first page): it bounds the backward scan
/// of their index in any plan, the generic plan PostgreSQL may settle on for a prepared statement
/// as in each custom one (Migrations/0011_notifications.sql).
enum NotificationStatements {
    // MARK: Reading

    /// The columns `NotificationStore` decodes, in its order, of the notification `n`: id, kind,
    /// title, actor, subject kind and id, `created_at` (exact, for the position), `read_at`.
    static let columns = """
        n.id, n.kind, n.title, n.actor_id, n.subject_kind, n.subject_id, n.created_at, n.read_at
        """

    /// A page of the person's notifications, over the `notifications_inbox` index: after the
    /// position $1 (created_at), $2 (id), at most $3.
    static let page = pageStatement()

    /// A page of the person's notifications not read yet, over the `notifications_unread` index
    /// (whose condition this statement states, so that it serves it in any plan): after the
    /// position $1 (created_at), $2 (id), at most $3.
    static let unreadPage = pageStatement(of: "n.read_at is null")

    /// ``page``, of the notifications that meet `scope` too (a condition on `n`) when there is one.
    private static func pageStatement(of scope: String? = nil) -> String {
        let scope = scope.map { " and \($0)" } ?? ""
        return """
            select \(columns)
            from notifications n
            where n.tenant_id = current_tenant_id() and n.recipient_id = current_person_id()\(scope)
              and (n.created_at, n.id) < ($1::timestamptz, $2::uuid)
            order by n.created_at desc, n.id desc
            limit $3
            """
    }

    /// The person's notification $1, if it is theirs.
    static let byID = """
        select \(columns)
        from notifications n
        where n.tenant_id = current_tenant_id() and n.recipient_id = current_person_id() and n.id = $1
        """

    /// How many of the person's notifications are not read yet.
    static let unreadCount = """
        select count(*) from notifications n
        where n.tenant_id = current_tenant_id() and n.recipient_id = current_person_id() and n.read_at is null
        """

    // MARK: Marking read

    /// Marks the person's notifications $1 (uuid[], without repeats) read now, those not read
    /// yet, provided all $2 of them are the person's (else none); returns how many of them are
    /// the person's.
    static let markRead = """
        with mine as (
            select n.id, n.read_at from notifications n
            where n.tenant_id = current_tenant_id() and n.recipient_id = current_person_id()
              and n.id = any($1::uuid[])
        ), marked as (
            update notifications n set read_at = clock_timestamp()
            where n.tenant_id = current_tenant_id() and n.recipient_id = current_person_id()
              and n.id in (select id from mine where read_at is null)
              and (select count(*) from mine) = $2
        )
        select count(*) from mine
        """

    /// Marks every notification of the person's not read yet read now.
    static let markAllRead = """
        update notifications n set read_at = clock_timestamp()
        where n.tenant_id = current_tenant_id() and n.recipient_id = current_person_id() and n.read_at is null
        """

    // MARK: Notifying

    /// A notification of the kind $2 titled $3, about the subject of kind $4 and id $5 (both
    /// null for none), to each of the people $1 (uuid[], without repeats), in the name of the
    /// context's person (null: the tenant's operator).
    static let notify = """
        insert into notifications (tenant_id, recipient_id, kind, title, actor_id, subject_kind, subject_id)
        select current_tenant_id(), r.id, $2, $3, current_person_id(), $4, $5
        from unnest($1::uuid[]) as r (id)
        """
}
