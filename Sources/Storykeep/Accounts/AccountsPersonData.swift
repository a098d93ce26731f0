public import StorykeepCore

extension AccountsModule {
    /// account.json, sessions.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .object("account.json", about: "Your account: your name, the name you log in with, your email if you have one, your role, when it was made and when you accepted the terms.", rows: """
                select p.id, p.role, p.username, p.email, p.display_name as "displayName", p.external_ref as "caseReference",
                       p.created_at as "createdAt", p.activated_at as "activatedAt", p.disabled_at as "switchedOffAt",
                       p.terms_version_accepted as "termsVersionAccepted", p.terms_accepted_at as "termsAcceptedAt"
                from people p where p.tenant_id = current_tenant_id() and p.id = $1
                """),
            .array("sessions.json", about: "Each time you logged in on a phone or computer (a session): when it started, when it was last used, and when it ends or ended. The secret part that keeps you logged in is not here.", orderedBy: #"x."loggedInAt", x.id"#, rows: """
                select s.id, s.created_at as "loggedInAt", s.last_used_at as "lastUsedAt", s.expires_at as "expiresAt", s.revoked_at as "loggedOutAt"
                from sessions s where s.tenant_id = current_tenant_id() and s.person_id = $1
                """)
        ]
    }
}
