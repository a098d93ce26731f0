/// The SQL of `Sessions`: login sessions, found by the hash of their bearer token. Values only
/// as the parameters listed above each statement.
enum SessionStatements {
    /// In the AUTHENTICATION context of a token's hash: the live session with that hash of a
    /// person not switched off (its id, the person's id and role), the transaction switched to
    /// that person (or to the tenant alone), the session slid forward by $2 seconds if unused for
    /// more than $1 (Migrations/0050_accounts_authenticate_session.sql).
    static let authenticate = "select viewer_session, viewer_person, viewer_role from authenticate_session($1::int, $2::int)"

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
