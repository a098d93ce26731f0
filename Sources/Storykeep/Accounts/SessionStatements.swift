/// The SQL of `Sessions`: login sessions, found by the hash of their bearer token. Values only
/// as the parameters listed above each statement.
enum SessionStatements {
    /// In the AUTHENTICATION context of a token's hash: the live session with that hash (the
    /// policy `sessions_visible` admits no other) of a person not switched off: its id, the
    /// person's id and role, and whether it was last used more than $1 seconds ago.
    static let authenticate = """
        select s.id, s.person_id, p.role::text, s.last_used_at < now() - $1::int * interval '1 second'
        from sessions s
        join people p on p.tenant_id = s.tenant_id and p.id = s.person_id
        where s.tenant_id = current_tenant_id() and s.token_hash = current_secret_hash() and p.disabled_at is null
        """

    /// Marks the session $1 used now and slides its expiry to $2 seconds from now, never past
    /// its latest.
    static let slide = """
        update sessions set last_used_at = now(), expires_at = least(now() + $2::int * interval '1 second', max_expires_at)
        where tenant_id = current_tenant_id() and id = $1
        """

    /// A session of the person $1 with the token hash $2, expiring after $3 idle seconds and at
    /// the latest $4 seconds from now; returns when it expires unless used.
    static let start = """
        insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at)
        values (current_tenant_id(), $1, $2,
                now() + least($3::int, $4::int) * interval '1 second', now() + $4::int * interval '1 second')
        returning expires_at
        """

    /// Ends the live sessions of the person $1 but the session $2 (null: all of them).
    static let revokeAll = """
        update sessions set revoked_at = now()
        where tenant_id = current_tenant_id() and person_id = $1 and revoked_at is null
          and ($2::uuid is null or id <> $2::uuid)
        """

    /// Ends the session $1.
    static let revoke = """
        update sessions set revoked_at = now() where tenant_id = current_tenant_id() and id = $1 and revoked_at is null
        """
}
