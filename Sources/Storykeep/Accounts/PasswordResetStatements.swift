/// The SQL of password resets (`PasswordResets`, `PasswordResetRecord`, `PasswordResetNotice`;
/// the tables of Migrations/0005_accounts_password_resets.sql). Values only as the parameters
/// listed above each statement.
enum PasswordResetStatements {
    /// The requests the context sees, newest first, at most $4: the one with id $1 (null: any),
    /// about the person $2 (null: anyone), in the state $3 (null: any). Each with its person (the
    /// columns `PersonRecord(row:)` reads first), then the request, its decision and completion,
    /// and its state, as `PasswordResetRecord(row:)` reads them.
    static let requests = """
        select p.id, p.role::text, p.display_name, p.username, p.email, p.external_ref, p.disabled_at is not null,
               p.terms_version_accepted, p.terms_accepted_at, p.created_at, p.activated_at,
               r.id, r.reason, r.requested_by, r.requested_by_name, r.requested_at, r.expires_at, s.state,
               d.actor_id, d.actor_name, d.at, d.note, c.at
        from password_reset_requests r
        join people p on p.tenant_id = r.tenant_id and p.id = r.person_id
        left join password_reset_events d
            on d.tenant_id = r.tenant_id and d.request_id = r.id and d.kind in ('APPROVED', 'REFUSED')
        left join password_reset_events c
            on c.tenant_id = r.tenant_id and c.request_id = r.id and c.kind = 'COMPLETED'
        cross join lateral (
            select case when c.at is not null then 'COMPLETED'
                        when d.kind is not null then d.kind::text
                        when r.expires_at <= now() then 'EXPIRED'
                        else 'PENDING' end as state
        ) s
        where r.tenant_id = current_tenant_id() and ($1::uuid is null or r.id = $1) and ($2::uuid is null or r.person_id = $2)
          and ($3::text is null or s.state = $3)
        order by r.requested_at desc, r.id
        limit $4
        """

    /// A request, in the viewer's name (their display name kept as it is now), to reset the
    /// password of the person $1 for the reason $2, open for $3 hours; returns its id.
    static let request = """
        insert into password_reset_requests (tenant_id, person_id, requested_by, requested_by_name, reason, expires_at)
        select current_tenant_id(), $1, p.id, p.display_name, $2, now() + $3::int * interval '1 hour'
        from people p
        where p.tenant_id = current_tenant_id() and p.id = current_person_id()
        returning id
        """

    /// What became of the request $1: the event $2 (a `password_reset_event`), by the viewer (their
    /// display name kept as it is now), with the note $3 (null for none).
    static let record = """
        insert into password_reset_events (tenant_id, request_id, kind, actor_id, actor_name, note)
        select current_tenant_id(), $1, $2::password_reset_event, p.id, p.display_name, $3
        from people p
        where p.tenant_id = current_tenant_id() and p.id = current_person_id()
        """

    /// The approved resets of the person $1's password, newest approval first, at most $2: who
    /// asked and when, who approved and when, and when the new password was set.
    static let notices = """
        select r.requested_by_name, r.requested_at, d.actor_name, d.at, c.at
        from password_reset_requests r
        join password_reset_events d on d.tenant_id = r.tenant_id and d.request_id = r.id and d.kind = 'APPROVED'
        left join password_reset_events c on c.tenant_id = r.tenant_id and c.request_id = r.id and c.kind = 'COMPLETED'
        where r.tenant_id = current_tenant_id() and r.person_id = $1
        order by d.at desc, r.id
        limit $2
        """
}
