import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepAccounts
@testable import StorykeepCore

// The policies of Migrations/0002_accounts.sql, tried and broken against a real PostgreSQL as
// the server's role (storykeep_app), through the test database (`make test`): the
// owner provisions the tenants, the app does the rest. Each test makes tenants of its own, so
// tests run in parallel on one database.

@Suite("Accounts: row-level security of people, credentials, codes, sessions and failures")
struct AccountsPolicyTests {
    @Test func aPersonSeesTheirOwnRowsOnly() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let seen = try await visibleCounts(app, tenant.samContext)
            #expect(seen == ["people": 1, "credentials": 1, "activation_codes": 0, "sessions": 1, "login_failures": 0])
            try await app.transaction(settings: tenant.samContext.settings) { tx throws in
                #expect(try await tx.query("select id from people")[0].decode(UUID.self, at: 0) == tenant.sam)
                #expect(try await tx.query("select person_id from sessions")[0].decode(UUID.self, at: 0) == tenant.sam)
            }
        }
    }

    @Test func anotherPersonCannotReadOrEndMySessions() async throws {
        try await withAccountsTenant { app, owner, tenant in
            try await app.transaction(settings: tenant.alexContext.settings) { tx throws in
                #expect(try await tx.query("select 1 from sessions where person_id = $1", tenant.sam).isEmpty)
                #expect(try await tx.query("select 1 from sessions where token_hash = $1", tenant.samToken.storageHash).isEmpty)
                #expect(try await tx.query("select 1 from credentials where person_id = $1", tenant.sam).isEmpty)
                #expect(try await tx.query("select 1 from people where id = $1", tenant.sam).isEmpty)
                #expect(try await tx.execute("update sessions set revoked_at = now() where person_id = $1", tenant.sam) == 0)
                #expect(try await tx.execute("update credentials set password_hash = '$argon2id$x' where person_id = $1", tenant.sam) == 0)
            }
            // Nor make one in my name, or set my password.
            await expectRefusal(insufficientPrivilege, app, tenant.alexContext) { tx in
                try await tx.execute(
                    """
                    insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '1 day', now() + interval '1 day')
                    """, tenant.sam, try SessionToken.generate().storageHash)
            }
            // Sam's session is untouched.
            #expect(try await visibleCounts(app, tenant.samContext)["sessions"] == 1)
            try await app.transaction(settings: tenant.samContext.settings) { tx throws in
                #expect(try await tx.query("select 1 from sessions where revoked_at is null").count == 1)
            }
        }
    }

    @Test func anotherTenantsPeopleAreInvisible() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let other = try await AccountsTenant(app: app, owner: owner)
            // The other tenant's admin, who sees everyone of their own tenant, sees none of ours.
            try await app.transaction(settings: other.adminContext.settings) { tx throws in
                #expect(try await tx.query("select 1 from people").count == 3)
                #expect(try await tx.query("select 1 from people where id = any($1)", [tenant.admin, tenant.sam, tenant.alex]).isEmpty)
                #expect(try await tx.query("select 1 from sessions where person_id = $1", tenant.sam).isEmpty)
                #expect(try await tx.execute("update people set disabled_at = now() where id = $1", tenant.sam) == 0)
                #expect(try await tx.execute("update sessions set revoked_at = now() where person_id = $1", tenant.sam) == 0)
            }
            // Not even by naming our tenant in the row.
            await expectRefusal(insufficientPrivilege, app, other.adminContext) { tx in
                try await tx.execute(
                    "insert into people (tenant_id, role, username, display_name) values ($1, 'AGENCY_ADMIN', 'intruder', 'I')",
                    tenant.id)
            }
            // A token of one tenant is nothing in another; nor is a login name.
            let stranger = AccountContext.authentication(tenantID: other.id, tokenHash: tenant.samToken.storageHash)
            #expect(try await visibleCounts(app, stranger).values.allSatisfy { $0 == 0 })
            let login = AccountContext.login(tenantID: other.id, loginName: tenant.samUsername)
            #expect(try await visibleCounts(app, login).values.allSatisfy { $0 == 0 })
        }
    }

    @Test func withoutAPersonNothingIsVisible() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let anonymous = ["storykeep.tenant_id": tenant.id.uuidString]
            try await app.transaction(settings: anonymous) { tx throws in
                for table in ["people", "credentials", "activation_codes", "sessions", "login_failures"] {
                    #expect(try await tx.query("select count(*) from \(table)")[0].decode(Int.self, at: 0) == 0, "\(table)")
                }
            }
            // A role without its key sees no more.
            for context in [
                AccountContext.login(tenantID: tenant.id, loginName: ""),
                .authentication(tenantID: tenant.id, tokenHash: []),
                .activation(tenantID: tenant.id, codeHash: []),
            ] {
                #expect(try await visibleCounts(app, context).values.allSatisfy { $0 == 0 }, "\(context)")
            }
            await expectRefusal(insufficientPrivilege, app, .login(tenantID: tenant.id, loginName: "x")) { tx in
                try await tx.execute(
                    "insert into people (tenant_id, role, username, display_name) values (current_tenant_id(), 'AGENCY_ADMIN', 'x', 'X')")
            }
        }
    }

    @Test func aLoginSeesOnlyThePersonItNames() async throws {
        try await withAccountsTenant { app, owner, tenant in
            // As typed: any case, spaces around.
            let login = AccountContext.login(tenantID: tenant.id, loginName: "  \(tenant.samUsername.uppercased()) ")
            #expect(try await visibleCounts(app, login) == [
                "people": 1, "credentials": 1, "activation_codes": 0, "sessions": 0, "login_failures": 0,
            ])
            try await app.transaction(settings: login.settings) { tx throws in
                let row = try await tx.query(
                    """
                    select p.id, c.password_hash from people p
                    left join credentials c on c.tenant_id = p.tenant_id and c.person_id = p.id
                    where p.username_key = current_login_name() or p.email_key = current_login_name()
                    """)
                #expect(row.count == 1)
                #expect(try row[0].decode(UUID.self, at: 0) == tenant.sam)
                // It reads; it changes nothing of the person.
                #expect(try await tx.execute("update credentials set password_hash = '$argon2id$x'") == 0)
                #expect(try await tx.execute("update people set username = 'taken'") == 0)
            }
            // Emails log in too, whatever their case.
            let byEmail = AccountContext.login(tenantID: tenant.id, loginName: "admin@AGENCY.example")
            try await app.transaction(settings: byEmail.settings) { tx throws in
                #expect(try await tx.query("select id from people")[0].decode(UUID.self, at: 0) == tenant.admin)
            }
            // Only a person's own context creates a session: a login must switch to them first.
            await expectRefusal(insufficientPrivilege, app, login) { tx in
                try await tx.execute(
                    """
                    insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '1 day', now() + interval '1 day')
                    """, tenant.sam, try SessionToken.generate().storageHash)
            }
        }
    }

    @Test func aLoginSwitchesToThePersonOnceTheSecretChecksOut() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let token = try SessionToken.generate()
            try await app.transaction(settings: AccountContext.login(tenantID: tenant.id, loginName: "alex").settings) { tx throws in
                try await tenant.alexContext.enter(on: tx)
                #expect(try await tx.query("select 1 from credentials").count == 1)
                try await tx.execute(
                    """
                    insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '1 day', now() + interval '14 days')
                    """, tenant.alex, token.storageHash)
                // Entering the person cleared the login's key: other names stay out of sight.
                #expect(try await tx.query("select 1 from login_failures").isEmpty)
                #expect(try await tx.query("select 1 from people").count == 1)
            }
            #expect(try await visibleCounts(app, tenant.alexContext)["sessions"] == 2)
        }
    }

    /// JIT compiled the policies' huge plans for seconds (createEntry timed out under the mixed
    /// load, issue 18): a request's transaction runs without it.
    @Test func aRequestTransactionRunsWithoutJIT() async throws {
        try await withAccountsTenant { app, owner, tenant in
            try await app.transaction(settings: tenant.alexContext.settings) { tx throws in
                #expect(try await tx.query("select current_setting('jit')")[0].decode(String.self, at: 0) == "off")
            }
            // Transaction-local: the connection goes back to the pool as it was.
            try await app.transaction(settings: [:]) { tx throws in
                #expect(try await tx.query("select current_setting('jit')")[0].decode(String.self, at: 0) == "on")
            }
        }
    }

    @Test func aTokenFindsItsLiveSessionAndPersonOnly() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let auth = AccountContext.authentication(tenantID: tenant.id, tokenHash: tenant.samToken.storageHash)
            #expect(try await visibleCounts(app, auth) == [
                "people": 1, "credentials": 0, "activation_codes": 0, "sessions": 1, "login_failures": 0,
            ])
            try await app.transaction(settings: auth.settings) { tx throws in
                let rows = try await tx.query(
                    "select p.id, p.role::text from sessions s join people p on p.tenant_id = s.tenant_id and p.id = s.person_id where s.token_hash = current_secret_hash()")
                #expect(rows.count == 1)
                #expect(try rows[0].decode(UUID.self, at: 0) == tenant.sam)
                #expect(try rows[0].decode(String.self, at: 1) == "YOUNG_PERSON")
            }
            // Revoked, it is gone, and so is its person.
            try await app.transaction(settings: tenant.samContext.settings) { tx throws in
                _ = try await tx.execute("update sessions set revoked_at = now()")
            }
            #expect(try await visibleCounts(app, auth).values.allSatisfy { $0 == 0 })
            // Expired likewise.
            try await app.transaction(settings: tenant.alexContext.settings) { tx throws in
                _ = try await tx.execute("update sessions set expires_at = now() - interval '1 second'")
            }
            let alexAuth = AccountContext.authentication(tenantID: tenant.id, tokenHash: tenant.alexToken.storageHash)
            #expect(try await visibleCounts(app, alexAuth).values.allSatisfy { $0 == 0 })
        }
    }

    @Test func anActivationSeesItsCodeOnly() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let other = try ActivationCode.generate()
            try await app.transaction(settings: tenant.adminContext.settings) { tx throws in
                try await tx.execute(
                    """
                    insert into activation_codes (tenant_id, person_id, code_hash, expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '7 days')
                    """, tenant.admin, other.storageHash)
                #expect(try await tx.query("select 1 from activation_codes").count == 2)
            }
            let activation = AccountContext.activation(tenantID: tenant.id, codeHash: tenant.samCode.storageHash)
            #expect(try await visibleCounts(app, activation) == [
                "people": 0, "credentials": 0, "activation_codes": 1, "sessions": 0, "login_failures": 0,
            ])
            try await app.transaction(settings: activation.settings) { tx throws in
                #expect(try await tx.query("select person_id from activation_codes")[0].decode(UUID.self, at: 0) == tenant.sam)
                #expect(try await tx.execute("update activation_codes set used_at = now()") == 1)
            }
            // A typed code that is not the stored one opens nothing.
            let wrong = AccountContext.activation(tenantID: tenant.id, codeHash: try ActivationCode.generate().storageHash)
            #expect(try await visibleCounts(app, wrong).values.allSatisfy { $0 == 0 })
            // Only admins issue codes.
            await expectRefusal(insufficientPrivilege, app, tenant.samContext) { tx in
                try await tx.execute(
                    """
                    insert into activation_codes (tenant_id, person_id, code_hash, expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '7 days')
                    """, tenant.sam, try ActivationCode.generate().storageHash)
            }
        }
    }

    @Test func adminsManagePeopleButNeverReadPasswordHashes() async throws {
        try await withAccountsTenant { app, owner, tenant in
            #expect(try await visibleCounts(app, tenant.adminContext) == [
                "people": 3, "credentials": 0, "activation_codes": 1, "sessions": 2, "login_failures": 0,
            ])
            try await app.transaction(settings: tenant.adminContext.settings) { tx throws in
                // Disabling Sam ends Sam's sessions.
                #expect(try await tx.execute("update people set disabled_at = now() where id = $1", tenant.sam) == 1)
                #expect(try await tx.execute("update sessions set revoked_at = now() where person_id = $1", tenant.sam) == 1)
            }
            let auth = AccountContext.authentication(tenantID: tenant.id, tokenHash: tenant.samToken.storageHash)
            #expect(try await visibleCounts(app, auth)["sessions"] == 0)
        }
    }

    @Test func aPersonCannotChangeWhoTheyAre() async throws {
        try await withAccountsTenant { app, owner, tenant in
            for assignment in ["display_name = 'Admin'", "email = 'sam@agency.example'", "external_ref = 'CASE-1'", "disabled_at = now()"] {
                await expectRefusal(insufficientPrivilege, app, tenant.samContext) { tx in
                    try await tx.execute("update people set \(assignment) where id = current_person_id()")
                }
            }
            // No role changes through the server at all, not even an admin's.
            await expectRefusal(insufficientPrivilege, app, tenant.adminContext) { tx in
                try await tx.execute("update people set role = 'AGENCY_ADMIN' where id = $1", tenant.sam)
            }
            // What is theirs to change, they change.
            try await app.transaction(settings: tenant.samContext.settings) { tx throws in
                #expect(try await tx.execute(
                    "update people set terms_version_accepted = '2026-1', terms_accepted_at = now() where id = current_person_id()") == 1)
            }
        }
    }

    @Test func usernamesAndEmailsAreUniquePerTenantWhateverTheCase() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let twins: [(username: String?, email: String?)] = [
                (tenant.samUsername.lowercased(), nil), (nil, "ADMIN@agency.EXAMPLE"),
            ]
            for (username, email) in twins {
                await expectRefusal("23505", app, tenant.adminContext) { tx in
                    try await tx.execute(
                        "insert into people (tenant_id, role, username, email, display_name) values (current_tenant_id(), 'CARER', $1, $2, 'Twin')",
                        username, email)
                }
            }
            // Another tenant may have its own Sam.
            let other = try await AccountsTenant(app: app, owner: owner)
            try await app.transaction(settings: other.adminContext.settings) { tx throws in
                _ = try await tx.execute(
                    "insert into people (tenant_id, role, username, display_name) values (current_tenant_id(), 'YOUNG_PERSON', $1, 'Sam')",
                    tenant.samUsername)
            }
        }
    }
}
