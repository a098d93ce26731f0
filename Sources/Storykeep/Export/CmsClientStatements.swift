/// The SQL of case-management clients and their tokens (Migrations/0017_export.sql). Values only
/// as the parameters listed above each statement; only constant fragments are spliced in.
enum CmsClientStatements {
    /// A client's columns as ``CmsClient/init(row:)`` reads them.
    private static let columns = "id, name, created_at, rotated_at, previous_secret_until, revoked_at"

    /// A new client named $1 with the secret hash $2, created by the admin acting.
    static let create = """
        insert into cms_clients (tenant_id, name, secret_hash, created_by)
        values (current_tenant_id(), $1, $2, current_person_id())
        returning \(columns)
        """

    /// The tenant's clients, oldest first.
    static let list = """
        select \(columns) from cms_clients where tenant_id = current_tenant_id() order by created_at, id
        """

    /// The client $1.
    static let find = """
        select \(columns) from cms_clients where tenant_id = current_tenant_id() and id = $1
        """

    /// Gives the live client $1 the secret hash $2; the current one stays valid until $3.
    static let rotate = """
        update cms_clients
        set previous_secret_hash = secret_hash, previous_secret_until = $3, secret_hash = $2,
            rotated_at = now(), rotated_by = current_person_id()
        where tenant_id = current_tenant_id() and id = $1 and revoked_at is null
        returning \(columns)
        """

    /// Revokes the live client $1.
    static let revoke = """
        update cms_clients set revoked_at = now(), revoked_by = current_person_id()
        where tenant_id = current_tenant_id() and id = $1 and revoked_at is null
        returning \(columns)
        """

    /// In the CLIENT_LOGIN context of the client $1, that client, locked until the transaction
    /// ends (concurrent attempts are judged in turn): its secret hashes, until when the previous
    /// one works, whether it is revoked, its wrong secrets in a row and the last one's time.
    static let credentials = """
        select secret_hash, previous_secret_hash, previous_secret_until, revoked_at is not null, failures, last_failure_at
        from cms_clients where tenant_id = current_tenant_id() and id = $1
        for update
        """

    /// Counts one more wrong secret of the client $1, at $2.
    static let recordFailure = """
        update cms_clients set failures = failures + 1, last_failure_at = $2
        where tenant_id = current_tenant_id() and id = $1
        """

    /// Forgets the wrong secrets of the client $1.
    static let resetFailures = """
        update cms_clients set failures = 0, last_failure_at = null
        where tenant_id = current_tenant_id() and id = $1 and failures > 0
        """

    /// Removes the client $1's tokens expired at $2.
    static let removeExpiredTokens = """
        delete from cms_tokens where tenant_id = current_tenant_id() and client_id = $1 and expires_at <= $2
        """

    /// A token of the client $1 with the hash $2, made at $3, expiring at $4.
    static let issueToken = """
        insert into cms_tokens (tenant_id, client_id, token_hash, created_at, expires_at)
        values (current_tenant_id(), $1, $2, $3, $4)
        """

    /// The client of the live token whose hash is $2 (hex) in tenant $1 at $3, if the client is
    /// not revoked, the transaction then in its context (else in the tenant's anonymous one): one
    /// round trip (Migrations/0055_export_client_authentication.sql).
    static let authenticate = "select cms_client_authenticate($1, $2, $3)"
}
