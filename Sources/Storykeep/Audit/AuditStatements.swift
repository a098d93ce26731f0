/// The SQL of the audit trail's readers (Migrations/0019_audit.sql); its writer is the core's
/// `AuditTrail`. Values only as the parameters listed above each statement.
enum AuditStatements {
    /// Up to $8 events before the position ($6 moment, $7 id), newest first, matching the
    /// filter: $1 actor (person or client), $2 subject person, $3 action, $4 from, $5 before
    /// (each null for any): id, occurred_at, actor person, actor client, action, subject person,
    /// subject, request id.
    static let page = """
        select id, occurred_at, actor_person_id, actor_client_id, action, subject_person_id, subject_id, request_id
        from audit_events
        where tenant_id = current_tenant_id()
          and ($1::uuid is null or actor_person_id = $1::uuid or actor_client_id = $1::uuid)
          and ($2::uuid is null or subject_person_id = $2::uuid)
          and ($3::text is null or action = $3::text)
          and ($4::timestamptz is null or occurred_at >= $4::timestamptz)
          and ($5::timestamptz is null or occurred_at < $5::timestamptz)
          and (occurred_at, id) < ($6::timestamptz, $7::uuid)
        order by occurred_at desc, id desc
        limit $8
        """

    /// Who read the entries $1 of the person acting, as far as the policy shows them the rows
    /// about them: entry, reader, the reader's name (while they may see them), first and last read.
    static let readers = """
        select a.subject_id, a.actor_person_id, p.display_name, min(a.occurred_at), max(a.occurred_at)
        from audit_events a
        left join people p on p.tenant_id = a.tenant_id and p.id = a.actor_person_id
        where a.tenant_id = current_tenant_id() and a.subject_person_id = current_person_id()
          and a.subject_id = any($1::uuid[]) and a.action = 'share.read' and a.actor_person_id is not null
        group by a.subject_id, a.actor_person_id, p.display_name
        order by min(a.occurred_at)
        """

    /// When each of the entries $1 of the person acting last went to a client: entry, moment.
    static let exported = """
        select subject_id, max(occurred_at) from audit_events
        where tenant_id = current_tenant_id() and subject_person_id = current_person_id()
          and subject_id = any($1::uuid[]) and action = 'export.delivered'
        group by subject_id
        """
}
