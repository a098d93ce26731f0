/// The SQL of passkeys and their challenges (Migrations/0045_accounts_passkeys.sql). Each runs in
/// the context its caller says, which the table's policies hold it to; values only as the
/// parameters listed above each statement.
enum PasskeyStatements {
    // MARK: Challenges

    /// A challenge: $1 its SHA-256, $2 purpose (`register`, `login`, `second_step`), $3 whose
    /// (null for `login`), $4 the user handle offered (`register` only), $5 when it expires.
    static let insertChallenge = """
        insert into passkey_challenges (tenant_id, challenge_hash, purpose, person_id, user_handle, expires_at)
        values (current_tenant_id(), $1, $2, $3, $4, $5)
        """

    /// Spends the challenge whose SHA-256 is $1, if the context sees it (a person's own, or a
    /// PASSKEY login's): its purpose, person, user handle and expiry.
    static let spendChallenge = """
        delete from passkey_challenges where tenant_id = current_tenant_id() and challenge_hash = $1
        returning purpose, person_id, user_handle, expires_at
        """

    /// The tenant operator's purge: challenges that expired before $1.
    static let purgeChallenges = "delete from passkey_challenges where tenant_id = current_tenant_id() and expires_at < $1"

    // MARK: A person's passkeys, in their own context

    /// The user handle of the person $1's passkeys, if they have any.
    static let userHandle = "select user_handle from passkeys where tenant_id = current_tenant_id() and person_id = $1 limit 1"

    /// The person $1's passkeys, oldest first: id, name, created, last used, credential id.
    static let list = """
        select id, name, created_at, last_used_at, credential_id from passkeys
        where tenant_id = current_tenant_id() and person_id = $1
        order by created_at, id
        """

    /// A passkey of the person $1: $2 credential id, $3 user handle, $4 COSE key, $5 algorithm,
    /// $6 sign count, $7 name. Returns what ``list`` does.
    static let insert = """
        insert into passkeys (tenant_id, person_id, credential_id, user_handle, public_key, algorithm, sign_count, name)
        values (current_tenant_id(), $1, $2, $3, $4, $5, $6, $7)
        returning id, name, created_at, last_used_at, credential_id
        """

    /// Renames the person $1's passkey $2 to $3.
    static let rename = """
        update passkeys set name = $3 where tenant_id = current_tenant_id() and person_id = $1 and id = $2
        returning id, name, created_at, last_used_at, credential_id
        """

    /// Removes the person $1's passkey $2.
    static let remove = "delete from passkeys where tenant_id = current_tenant_id() and person_id = $1 and id = $2 returning id"

    /// Records a login with the passkey $1 whose counter is now $2, if the counter grew (or the
    /// authenticator keeps none): a concurrent login with a copy changes nothing.
    static let recordUse = """
        update passkeys set sign_count = $2, last_used_at = now()
        where tenant_id = current_tenant_id() and id = $1 and person_id = current_person_id() and (sign_count < $2 or $2 = 0)
        returning id
        """

    // MARK: Logging in

    /// The credential ids of the person a LOGIN context's name belongs to (allowCredentials).
    static let credentialsOfLoginName = "select credential_id from passkeys where tenant_id = current_tenant_id() order by created_at, id"

    /// The passkey a PASSKEY context names: id, person, user handle, COSE key, sign count.
    static let passkeyOfCredential = """
        select id, person_id, user_handle, public_key, sign_count from passkeys
        where tenant_id = current_tenant_id() and credential_id = current_passkey_credential_id()
        """
}
