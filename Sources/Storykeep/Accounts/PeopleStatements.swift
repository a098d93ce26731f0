/// The SQL of people: what admins do to them (`PeopleAdmin`), reading one (`PersonRecord`), and
/// a person accepting the terms. Values only as the parameters listed above each statement. A
/// statement that returns people selects, first, the columns `PersonRecord(row:)` reads.
enum PeopleStatements {
    /// The person, if any, the context may see with this id.
    static let person = """
        select p.id, p.role::text, p.display_name, p.username, p.email, p.external_ref, p.disabled_at is not null,
               p.terms_version_accepted, p.terms_accepted_at, p.created_at, p.activated_at
        from people p where p.tenant_id = current_tenant_id() and p.id = $1
        """

    /// The first-made person of the tenant whose username is $1 or whose email is $2, compared as
    /// logins compare them (case folded).
    static let personByLogin = """
        select p.id, p.role::text, p.display_name, p.username, p.email, p.external_ref, p.disabled_at is not null,
               p.terms_version_accepted, p.terms_accepted_at, p.created_at, p.activated_at
        from people p
        where p.tenant_id = current_tenant_id() and (p.username_key = lower($1) or p.email_key = lower($2))
        order by p.created_at, p.id
        limit 1
        """

    /// A person of the role $1 (a `person_role`) named $2, with the username $3, email $4 and
    /// case reference $5 (each may be null); returns them.
    static let insert = """
        insert into people as p (tenant_id, role, display_name, username, email, external_ref)
        values (current_tenant_id(), $1::person_role, $2, $3, $4, $5)
        returning p.id, p.role::text, p.display_name, p.username, p.email, p.external_ref, p.disabled_at is not null,
                  p.terms_version_accepted, p.terms_accepted_at, p.created_at, p.activated_at
        """

    /// A page of the tenant's people of the role $1 (null: any), oldest first, after the
    /// position ($2 created_at, $3 id; null: from the first), at most $4; then each one's exact
    /// `created_at`, for the position.
    static let page = """
        select p.id, p.role::text, p.display_name, p.username, p.email, p.external_ref, p.disabled_at is not null,
               p.terms_version_accepted, p.terms_accepted_at, p.created_at, p.activated_at,
               p.created_at
        from people p
        where p.tenant_id = current_tenant_id() and ($1::text is null or p.role::text = $1)
          and ($2::timestamptz is null or (p.created_at, p.id) > ($2::timestamptz, $3::uuid))
        order by p.created_at, p.id
        limit $4
        """

    /// An activation code for the person $1, stored as its hash $2, working for $3 hours, for the
    /// password reset $4 (null: a new person's code); returns when it expires.
    static let issueCode = """
        insert into activation_codes (tenant_id, person_id, code_hash, expires_at, password_reset_id)
        values (current_tenant_id(), $1, $2, now() + $3::int * interval '1 hour', $4)
        returning expires_at
        """

    /// Makes the person $1's live codes expire now (but after they were made, as the check
    /// `activation_codes_expiry` wants).
    static let expireCodes = """
        update activation_codes set expires_at = greatest(now(), created_at + interval '1 millisecond')
        where tenant_id = current_tenant_id() and person_id = $1 and used_at is null and expires_at > now()
        """

    /// Switches the person $1 off, now, unless they are already.
    static let disable = """
        update people set disabled_at = now() where tenant_id = current_tenant_id() and id = $1 and disabled_at is null
        """

    /// Records that the person $1 accepted the terms of version $2, now.
    static let acceptTerms = """
        update people set terms_version_accepted = $2, terms_accepted_at = now()
        where tenant_id = current_tenant_id() and id = $1
        """
}
