import Foundation
import Postgres
import StorykeepAccounts
import StorykeepCore

/// The pools of one database test: the server's role, as the domain's stores run, and the owner
/// (to make tenants); both closed when the test's body ends, whatever happens.
public struct TestPools: Sendable {
    public let app: PostgresPool
    public let owner: PostgresPool

    /// Runs `body` with `appSize` connections as storykeep_app and `ownerSize` as the owner, on
    /// the migrated test database.
    public static func run<T>(app appSize: Int = 4, owner ownerSize: Int = 2, _ body: (TestPools) async throws -> T) async throws -> T {
        try await TestDatabase.migrated()
        return try await TestDatabase.appPool(size: appSize).closing { app in
            try await TestDatabase.ownerPool(size: ownerSize).closing { owner in
                try await body(TestPools(app: app, owner: owner))
            }
        }
    }

    /// Runs `body` as storykeep_app in `context` (as the server runs a request), committing at the end.
    @discardableResult
    public func asPerson<T>(_ context: AccountContext, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await app.transaction(settings: context.settings, body)
    }

    /// A new tenant of a unique slug starting with `slugPrefix`, its file changed by `tweak`, as
    /// `storykeep tenant apply` makes it.
    public func makeTenant(slugPrefix: String = "s", _ tweak: (inout TenantFile) -> Void = { _ in }) async throws -> TestTenant {
        try await TestTenants.apply([try TestTenants.file(slugPrefix: slugPrefix, tweak)], owner: owner)[0]
    }

    /// Adds `people` to `tenant` as its operator, through the policies, in one transaction: the
    /// rows of `people` only (no activation code, password or session: a test adds those it
    /// needs). Their ids, in order.
    public func insertPeople(_ people: [NewPerson], into tenant: TestTenant) async throws -> [UUID] {
        try await asPerson(.tenantOperator(tenantID: tenant.id)) { tx in
            var ids: [UUID] = []
            for person in people {
                let rows = try await tx.query(
                    """
                    insert into people (tenant_id, role, username, email, display_name)
                    values (current_tenant_id(), $1::person_role, $2, $3, $4) returning id
                    """, person.role.rawValue, person.username, person.email, person.displayName)
                ids.append(try rows[0].decode(UUID.self, at: 0))
            }
            return ids
        }
    }
}

extension TestTenant {
    /// Someone of `role` for a test in this tenant: `displayName` (by default `name` capitalized);
    /// `loginName` is a young person's username (by default `<name>-<the slug's last 8>`) or an
    /// adult's email (by default `<name>@<slug>.example`), so that it is unique across the tests'
    /// tenants.
    public func newPerson(_ role: PersonRole, _ name: String, displayName: String? = nil, loginName: String? = nil) -> NewPerson {
        let displayName = displayName ?? name.capitalized
        if role == .youngPerson {
            return NewPerson(role: role, displayName: displayName, username: loginName ?? "\(name)-\(self.slug.suffix(8))")
        }
        return NewPerson(role: role, displayName: displayName, email: loginName ?? "\(name)@\(self.slug).example")
    }
}
