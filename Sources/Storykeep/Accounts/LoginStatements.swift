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

    /// The person $1's password hash, if they have one (their own context).
    static let passwordHash = "select password_hash from credentials where tenant_id = current_tenant_id() and person_id = $1"

    // MARK: Activation codes, in the ACTIVATION context of the code's hash

    /// The person of the context's code, if it is unused and unexpired.
    static let activationCode = """
        select person_id from activation_codes
        where tenant_id = current_tenant_id() and code_hash = current_secret_hash() and used_at is null
          and expires_at > now()
        """

    /// Spends the context's code, if it is unused and unexpired; returns its person and the
    /// password reset it was issued for (null for a new person's code).
    static let spendActivationCode = """
        update activation_codes set used_at = now()
        where tenant_id = current_tenant_id() and code_hash = current_secret_hash() and used_at is null
          and expires_at > now()
        returning person_id, password_reset_id
        """

    /// Gives the person $1 the username $2.
    static let setUsername = "update people set username = $2 where tenant_id = current_tenant_id() and id = $1"

    // MARK: Failed logins (Migrations/0006_accounts_login_failures_per_person.sql)

    /// The statements of one kind of `login_failures` row: a person's (their id the last
    /// parameter), or the LOGIN context's name's, which belongs to nobody (`current_login_name()`).
    struct FailureStatements {
        /// Takes a transaction-level advisory lock on the tenant and the subject, so that
        /// concurrent attempts are judged one after the other, also before the first failure,
        /// when there is no row a row lock could hold. The two-key form: a lock space of its own,
        /// apart from the migrator's one-key locks; subjects whose hashes collide only wait for
        /// each other.
        var lock: String
        /// The subject's failures in a row (0 when none is recorded), when the last was, and the
        /// transaction's `now()`.
        var read: String
        /// Counts one more failure, at $1 (null: `now()`); returns the count, the time recorded
        /// and `now()`.
        var record: String
        /// Forgets the subject's failures.
        var reset: String
    }

    /// The failures of the person $1 (of $2 in `record`).
    static let failuresOfPerson = FailureStatements(
        lock: """
            select pg_advisory_xact_lock(hashtext('login_failures'), hashtext(current_tenant_id()::text || ' ' || $1::uuid::text))
            """,
        read: """
            select coalesce(f.failures, 0), f.last_failure_at, now()
            from (select 1) as one
            left join login_failures f on f.tenant_id = current_tenant_id() and f.person_id = $1::uuid
            """,
        record: """
            insert into login_failures (tenant_id, person_id, failures, last_failure_at)
            values (current_tenant_id(), $2::uuid, 1, coalesce($1, now()))
            on conflict (tenant_id, person_id)
                do update set failures = login_failures.failures + 1, last_failure_at = excluded.last_failure_at
            returning failures, last_failure_at, now()
            """,
        reset: "delete from login_failures where tenant_id = current_tenant_id() and person_id = $1::uuid")

    /// The failures of the LOGIN context's name.
    static let failuresOfName = FailureStatements(
        lock: """
            select pg_advisory_xact_lock(hashtext('login_failures'), hashtext(current_tenant_id()::text || ' ' || current_login_name()))
            """,
        read: """
            select coalesce(f.failures, 0), f.last_failure_at, now()
            from (select 1) as one
            left join login_failures f on f.tenant_id = current_tenant_id() and f.login_name = current_login_name()
            """,
        record: """
            insert into login_failures (tenant_id, login_name, failures, last_failure_at)
            values (current_tenant_id(), current_login_name(), 1, coalesce($1, now()))
            on conflict (tenant_id, login_name)
                do update set failures = login_failures.failures + 1, last_failure_at = excluded.last_failure_at
            returning failures, last_failure_at, now()
            """,
        reset: "delete from login_failures where tenant_id = current_tenant_id() and login_name = current_login_name()")
}
