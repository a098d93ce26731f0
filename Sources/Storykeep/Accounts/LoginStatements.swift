/// The SQL of logging in, activating an account and changing a password (`Login`), and of the
/// failed-login counts (`LoginFailures`). Each runs in the context its caller says (see
/// `AccountContext`), which the policies of Migrations/0002_accounts.sql hold it to; values only
/// as the parameters listed above each statement.
enum LoginStatements {
    // MARK: Logging in

    /// The person the LOGIN context's name is the username or email of, if any: their id, role,
    /// whether they are switched off, and their password hash (null before activation).
    static let account = """
        select p.id, p.role::text, p.disabled_at is not null, c.password_hash
        from people p
        left join credentials c on c.tenant_id = p.tenant_id and c.person_id = p.id
        where p.tenant_id = current_tenant_id()
          and (p.username_key = current_login_name() or p.email_key = current_login_name())
        """

    /// Gives the person $1 the password hash $2 (a PHC string), in their own context, whether
    /// or not they had a password.
    static let setPassword = """
        insert into credentials (tenant_id, person_id, password_hash) values (current_tenant_id(), $1, $2)
        on conflict (tenant_id, person_id) do update set password_hash = excluded.password_hash, updated_at = now()
        """

    /// Replaces the password hash of the person $1 with $2: a rehash after login, or a changed password.
    static let replacePassword = """
        update credentials set password_hash = $2, updated_at = now()
        where tenant_id = current_tenant_id() and person_id = $1
        """

    /// The person $1's password hash (null if they have none) and the name their logins are
    /// counted under (username, else email).
    static let passwordAndLoginName = """
        select c.password_hash, coalesce(p.username, p.email)
        from people p left join credentials c on c.tenant_id = p.tenant_id and c.person_id = p.id
        where p.tenant_id = current_tenant_id() and p.id = $1
        """

    // MARK: Activation codes, in the ACTIVATION context of the code's hash

    /// The person of the context's code, if it is unused and unexpired.
    static let activationCode = """
        select person_id from activation_codes
        where tenant_id = current_tenant_id() and code_hash = current_secret_hash() and used_at is null
          and expires_at > now()
        """

    /// Spends the context's code, if it is unused and unexpired; returns its person.
    static let spendActivationCode = """
        update activation_codes set used_at = now()
        where tenant_id = current_tenant_id() and code_hash = current_secret_hash() and used_at is null
          and expires_at > now()
        returning person_id
        """

    /// Gives the person $1 the username $2.
    static let setUsername = "update people set username = $2 where tenant_id = current_tenant_id() and id = $1"

    // MARK: Failed logins, in the LOGIN context of the name

    /// Locks the name's row of failures, if it has one, until the transaction ends.
    static let lockFailures = """
        select 1 from login_failures where tenant_id = current_tenant_id() and login_name = current_login_name()
        for update
        """

    /// The name's failures in a row (0 when none is recorded), when the last was, and the
    /// transaction's `now()`.
    static let failures = """
        select coalesce(f.failures, 0), f.last_failure_at, now()
        from (select 1) as one
        left join login_failures f
            on f.tenant_id = current_tenant_id() and f.login_name = current_login_name()
        """

    /// Counts one more failure of the name, at $1 (null: `now()`); returns the count, the
    /// time recorded and `now()`.
    static let recordFailure = """
        insert into login_failures (tenant_id, login_name, failures, last_failure_at)
        values (current_tenant_id(), current_login_name(), 1, coalesce($1, now()))
        on conflict (tenant_id, login_name)
            do update set failures = login_failures.failures + 1, last_failure_at = excluded.last_failure_at
        returning failures, last_failure_at, now()
        """

    /// Forgets the name's failures.
    static let resetFailures = """
        delete from login_failures where tenant_id = current_tenant_id() and login_name = current_login_name()
        """
}
