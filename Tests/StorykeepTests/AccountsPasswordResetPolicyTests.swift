import Foundation
import Postgres
import Testing

@testable import Storykeep

// The policies of Migrations/0005_accounts_password_resets.sql, tried as a server with a bug (or a
// lone admin with a SQL prompt as storykeep_app) would: four eyes, the onboarding-only codes and the
// append-only history hold in the database itself, whatever the resolvers do.

/// A second admin for `tenant`, Bea, added as the operator adds admins: her id and context.
private func addSecondAdmin(_ app: PostgresPool, _ tenant: AccountsTenant) async throws -> (id: UUID, context: AccountContext) {
    let bea = UUID()
    try await app.transaction(settings: AccountContext.tenantOperator(tenantID: tenant.id).settings) { tx throws in
        try await tx.execute(
            "insert into people (tenant_id, id, role, email, display_name) values (current_tenant_id(), $1, 'AGENCY_ADMIN', $2, 'Bea Admin')",
            bea, "bea-\(tenant.samUsername)@agency.example")
    }
    return (bea, .person(tenantID: tenant.id, personID: bea, role: .agencyAdmin))
}

/// A request by the tenant's admin to reset Sam's password: its id.
private func requestSamsReset(_ app: PostgresPool, _ tenant: AccountsTenant) async throws -> UUID {
    try await app.transaction(settings: tenant.adminContext.settings) { tx throws in
        try await tx.query(
            """
            insert into password_reset_requests (tenant_id, person_id, requested_by, requested_by_name, reason, expires_at)
            values (current_tenant_id(), $1, $2, 'Ada Admin', 'Sam phoned: forgotten', now() + interval '1 day')
            returning id
            """, tenant.sam, tenant.admin)[0].decode(UUID.self, at: 0)
    }
}

private let insertApproval = """
    insert into password_reset_events (tenant_id, request_id, kind, actor_id, actor_name)
    select current_tenant_id(), $1, 'APPROVED', id, display_name from people where id = current_person_id()
    """

private let insertResetCode = """
    insert into activation_codes (tenant_id, person_id, code_hash, expires_at, password_reset_id)
    values (current_tenant_id(), $1, $2, now() + interval '1 day', $3)
    """

@Suite("Accounts: password resets in the database")
struct AccountsPasswordResetPolicyTests {
    @Test func aLoneAdminGetsNoCodeForSomeoneWithAPassword() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let admin = tenant.adminContext
            // Sam has a password: no onboarding code, whoever asks.
            for context in [admin, .tenantOperator(tenantID: tenant.id)] {
                await expectRefusal(insufficientPrivilege, app, context) { tx in
                    try await tx.execute(
                        "insert into activation_codes (tenant_id, person_id, code_hash, expires_at) values (current_tenant_id(), $1, $2, now() + interval '1 day')",
                        tenant.sam, try ActivationCode.generate().storageHash)
                }
            }
            // Nor can an admin make Sam look new, or new people look activated.
            await expectRefusal(insufficientPrivilege, app, admin) { tx in
                try await tx.execute("update people set activated_at = null where id = $1", tenant.sam)
            }
            await expectRefusal(insufficientPrivilege, app, tenant.samContext) { tx in
                try await tx.execute("update people set activated_at = null where id = $1", tenant.sam)
            }
            await expectRefusal(insufficientPrivilege, app, admin) { tx in
                try await tx.execute("update people set activated_at = now() where id = $1", tenant.admin)
            }
            // Nor add another admin to approve with (the operator does that).
            await expectRefusal(insufficientPrivilege, app, admin) { tx in
                try await tx.execute(
                    "insert into people (tenant_id, role, email, display_name) values (current_tenant_id(), 'AGENCY_ADMIN', 'sock@agency.example', 'Sock')")
            }
            // Nor ask in someone else's name, or under another name.
            let (beaID, bea) = try await addSecondAdmin(app, tenant)
            for (by, name) in [(beaID, "Bea Admin"), (tenant.admin, "Bea Admin")] {
                await expectRefusal(insufficientPrivilege, app, admin) { tx in
                    try await tx.execute(
                        """
                        insert into password_reset_requests (tenant_id, person_id, requested_by, requested_by_name, reason, expires_at)
                        values (current_tenant_id(), $1, $2, $3, 'x', now() + interval '1 day')
                        """, tenant.sam, by, name)
                }
            }
            // Her own request: she can neither approve it nor issue its code.
            let request = try await requestSamsReset(app, tenant)
            await expectRefusal(insufficientPrivilege, app, admin) { tx in try await tx.execute(insertApproval, request) }
            await expectRefusal(insufficientPrivilege, app, admin) { tx in
                try await tx.execute(insertResetCode, tenant.sam, try ActivationCode.generate().storageHash, request)
            }
            // Bea approves; the code is Bea's to issue, once, and for Sam only.
            try await app.transaction(settings: bea.settings) { tx throws in _ = try await tx.execute(insertApproval, request) }
            await expectRefusal(insufficientPrivilege, app, admin) { tx in
                try await tx.execute(insertResetCode, tenant.sam, try ActivationCode.generate().storageHash, request)
            }
            await expectRefusal(insufficientPrivilege, app, bea) { tx in
                try await tx.execute(insertResetCode, tenant.alex, try ActivationCode.generate().storageHash, request)
            }
            try await app.transaction(settings: bea.settings) { tx throws in
                _ = try await tx.execute(insertResetCode, tenant.sam, try ActivationCode.generate().storageHash, request)
            }
            await expectRefusal("23505", app, bea) { tx in
                try await tx.execute(insertResetCode, tenant.sam, try ActivationCode.generate().storageHash, request)
            }
            // A decision is taken once.
            await expectRefusal("23505", app, bea) { tx in try await tx.execute(insertApproval, request) }
        }
    }

    @Test func aSpentCodeStaysSpentAndNoCodeLivesLonger() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let activation = AccountContext.activation(tenantID: tenant.id, codeHash: tenant.samCode.storageHash)
            try await app.transaction(settings: activation.settings) { tx throws in
                #expect(try await tx.execute("update activation_codes set used_at = now()") == 1)
            }
            for assignment in ["used_at = null", "expires_at = expires_at + interval '1 day'"] {
                await expectRefusal(insufficientPrivilege, app, tenant.adminContext) { tx in
                    try await tx.execute("update activation_codes set \(assignment) where person_id = $1", tenant.sam)
                }
            }
        }
    }

    @Test func theHistoryIsAppendOnlyAndSeenByAdminsAndThePersonOnly() async throws {
        try await withAccountsTenant { app, owner, tenant in
            let bea = try await addSecondAdmin(app, tenant).context
            let request = try await requestSamsReset(app, tenant)
            try await app.transaction(settings: bea.settings) { tx throws in _ = try await tx.execute(insertApproval, request) }
            // Nobody rewrites or removes a step, admins included.
            for context in [tenant.adminContext, bea, tenant.samContext] {
                for statement in [
                    "update password_reset_requests set reason = 'nothing'", "delete from password_reset_requests",
                    "update password_reset_events set actor_name = 'Someone'", "delete from password_reset_events",
                ] {
                    await expectRefusal(insufficientPrivilege, app, context) { tx in try await tx.execute(statement) }
                }
            }
            func seen(_ context: AccountContext) async throws -> [Int] {
                try await app.transaction(settings: context.settings) { tx throws in
                    [
                        try await tx.query("select count(*) from password_reset_requests")[0].decode(Int.self, at: 0),
                        try await tx.query("select count(*) from password_reset_events")[0].decode(Int.self, at: 0),
                    ]
                }
            }
            #expect(try await seen(tenant.adminContext) == [1, 1])
            #expect(try await seen(bea) == [1, 1])
            #expect(try await seen(tenant.samContext) == [1, 1])
            #expect(try await seen(tenant.alexContext) == [0, 0])
            #expect(try await seen(.login(tenantID: tenant.id, loginName: tenant.samUsername)) == [0, 0])
            let other = try await AccountsTenant(app: app, owner: owner)
            #expect(try await seen(other.adminContext) == [0, 0])
            // Sam neither asks nor decides; he records that he used the code, Alex cannot for him.
            await expectRefusal(insufficientPrivilege, app, tenant.samContext) { tx in
                try await tx.execute(
                    """
                    insert into password_reset_requests (tenant_id, person_id, requested_by, requested_by_name, reason, expires_at)
                    values (current_tenant_id(), $1, $2, 'Sam', 'x', now() + interval '1 day')
                    """, tenant.alex, tenant.sam)
            }
            let complete = """
                insert into password_reset_events (tenant_id, request_id, kind, actor_id, actor_name)
                select current_tenant_id(), $1, 'COMPLETED', id, display_name from people where id = current_person_id()
                """
            await expectRefusal(insufficientPrivilege, app, tenant.alexContext) { tx in try await tx.execute(complete, request) }
            try await app.transaction(settings: tenant.samContext.settings) { tx throws in
                #expect(try await tx.execute(complete, request) == 1)
            }
        }
    }
}
