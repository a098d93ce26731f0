import Foundation
import Postgres
import StorykeepTestSupport
import Testing

@testable import Storykeep

// What the accounts policy tests share: a tenant of their own, made through the policies as the
// server makes its rows, and ways to see what a context sees or is refused.

/// A tenant of its own: an admin, Sam and Alex (young people) with passwords and a session each,
/// an unused activation code for Sam. Made through the policies, as the server will.
struct AccountsTenant {
    let id: UUID
    let admin = UUID(), sam = UUID(), alex = UUID()
    let samToken: SessionToken, alexToken: SessionToken, samCode: ActivationCode
    let samUsername: String

    var adminContext: AccountContext { .person(tenantID: id, personID: admin, role: .agencyAdmin) }
    var samContext: AccountContext { .person(tenantID: id, personID: sam, role: .youngPerson) }
    var alexContext: AccountContext { .person(tenantID: id, personID: alex, role: .youngPerson) }

    init(app: PostgresPool, owner: PostgresPool) async throws {
        let id = UUID()
        let slug = "accounts-" + id.uuidString.prefix(8).lowercased()
        self.id = id
        samUsername = "Sam-" + slug.suffix(8)
        (samToken, alexToken, samCode) = (try .generate(), try .generate(), try .generate())
        let (admin, sam, alex, samUsername, samCode) = (admin, sam, alex, samUsername, samCode)
        try await owner.transaction { tx throws in
            _ = try await tx.execute("insert into tenants (tenant_id, slug, display_name) values ($1, $2, $3)", id, slug, slug)
        }
        try await app.transaction(settings: AccountContext.tenantOperator(tenantID: id).settings) { tx throws in
            try await tx.execute(
                """
                insert into people (tenant_id, id, role, username, email, display_name) values
                    (current_tenant_id(), $1, 'AGENCY_ADMIN', null, 'Admin@Agency.example', 'Ada Admin'),
                    (current_tenant_id(), $2, 'YOUNG_PERSON', $4, null, 'Sam'),
                    (current_tenant_id(), $3, 'YOUNG_PERSON', 'alex', null, 'Alex')
                """, admin, sam, alex, samUsername)
            try await tx.execute(
                """
                insert into activation_codes (tenant_id, person_id, code_hash, expires_at)
                values (current_tenant_id(), $1, $2, now() + interval '7 days')
                """, sam, samCode.storageHash)
        }
        for (context, person, token) in [(samContext, sam, samToken), (alexContext, alex, alexToken)] {
            try await app.transaction(settings: context.settings) { tx throws in
                try await tx.execute(
                    "insert into credentials (tenant_id, person_id, password_hash) values (current_tenant_id(), $1, $2)",
                    person, "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g")
                try await tx.execute(
                    """
                    insert into sessions (tenant_id, person_id, token_hash, expires_at, max_expires_at)
                    values (current_tenant_id(), $1, $2, now() + interval '1 day', now() + interval '14 days')
                    """, person, token.storageHash)
            }
        }
    }
}

/// Runs `body` with a pool of the app's role, one of the owner's (to make more tenants), and a
/// fresh tenant; closes the pools whatever happens.
func withAccountsTenant(_ body: (_ app: PostgresPool, _ owner: PostgresPool, AccountsTenant) async throws -> Void) async throws {
    try await TestPools.run(app: 2) { pools in
        try await body(pools.app, pools.owner, try await AccountsTenant(app: pools.app, owner: pools.owner))
    }
}

/// Rows of each accounts table visible in `context`.
func visibleCounts(_ app: PostgresPool, _ context: AccountContext) async throws -> [String: Int] {
    try await app.transaction(settings: context.settings) { tx throws in
        var counts: [String: Int] = [:]
        for table in ["people", "credentials", "activation_codes", "sessions", "login_failures"] {
            counts[table] = try await tx.query("select count(*) from \(table)")[0].decode(Int.self, at: 0)
        }
        return counts
    }
}

/// The error of `body`, which must fail with PostgreSQL's SQLSTATE `state`.
func expectRefusal(
    _ state: String, _ app: PostgresPool, _ context: AccountContext,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping (PostgresTransaction) async throws -> Void
) async {
    await #expect(sourceLocation: sourceLocation) {
        try await app.transaction(settings: context.settings, body)
    } throws: { error in
        (error as? PostgresError)?.sqlState == state
    }
}

let insufficientPrivilege = "42501"
