import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore

// The caseload's and the notifications' policies (Migrations/0010_caseload.sql, 0011) against the
// real PostgreSQL of `make test`, as the server's role. Each test makes tenants of its own, so the
// tests run in parallel on one database.

/// A tenant of its own: an admin; Sam and Alex, young people; Wendy and Ivy, social workers;
/// Carl, a carer; Dan, a social worker switched off. Made through the policies, as the server
/// makes them. Nobody is assigned yet.
struct CaseloadTenant {
    let id: UUID
    let admin: UUID, sam: UUID, alex: UUID, wendy: UUID, ivy: UUID, carl: UUID, dan: UUID

    /// Each person's role.
    var roles: [UUID: PersonRole] {
        [admin: .agencyAdmin, sam: .youngPerson, alex: .youngPerson, wendy: .socialWorker, ivy: .socialWorker, carl: .carer,
         dan: .socialWorker]
    }

    /// The database context of `person`, as a request of theirs sets it.
    func context(_ person: UUID) -> AccountContext {
        .person(tenantID: id, personID: person, role: roles[person]!)
    }

    var operatorContext: AccountContext { .tenantOperator(tenantID: id) }

    init(_ pools: TestPools, _ tweak: (inout TenantFile) -> Void = { _ in }) async throws {
        let tenant = try await pools.makeTenant(slugPrefix: "caseload", tweak)
        id = tenant.id
        let people = try await pools.insertPeople(
            [
                tenant.newPerson(.agencyAdmin, "admin", displayName: "Ada Admin"),
                tenant.newPerson(.youngPerson, "sam", displayName: "Sam Smith"),
                tenant.newPerson(.youngPerson, "alex", displayName: "Alex Jones"),
                tenant.newPerson(.socialWorker, "wendy", displayName: "Wendy Walker"),
                tenant.newPerson(.socialWorker, "ivy", displayName: "Ivy Irwin"),
                tenant.newPerson(.carer, "carl", displayName: "Carl Carter"),
                tenant.newPerson(.socialWorker, "dan", displayName: "Dan Doe"),
            ], into: tenant)
        (admin, sam, alex, wendy, ivy, carl, dan) = (people[0], people[1], people[2], people[3], people[4], people[5], people[6])
        try await pools.asPerson(.tenantOperator(tenantID: id)) { [dan] tx in
            try await tx.execute("update people set disabled_at = now() where tenant_id = current_tenant_id() and id = $1", dan)
        }
    }
}

/// The pools and a fresh tenant of one test; the pools are closed whatever happens.
struct CaseloadDatabase {
    let pools: TestPools
    let tenant: CaseloadTenant

    /// Runs `body` with a tenant whose file `tweak` changed (a module's settings, say).
    static func run(tenant tweak: (inout TenantFile) -> Void = { _ in }, _ body: (CaseloadDatabase) async throws -> Void) async throws {
        try await TestPools.run(app: 3, owner: 1) { pools in
            try await body(CaseloadDatabase(pools: pools, tenant: try await CaseloadTenant(pools, tweak)))
        }
    }

    /// Another tenant, with people of its own.
    func otherTenant() async throws -> CaseloadTenant { try await CaseloadTenant(pools) }

    /// Runs `body` as storykeep_app in `person`'s context (of `tenant`, by default this test's),
    /// committing at the end.
    @discardableResult
    func asPerson<T>(_ person: UUID, of tenant: CaseloadTenant? = nil, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await pools.asPerson((tenant ?? self.tenant).context(person), body)
    }

    /// Assigns `adult` to `youngPerson` as the tenant's admin: the assignment's id.
    @discardableResult
    func assign(_ youngPerson: UUID, _ adult: UUID, _ relationship: AssignmentRelationship) async throws -> UUID {
        try await pools.assign(youngPerson, adult, relationship, by: tenant.context(tenant.admin)).id
    }

    /// The teams the policy tests of the modules built on the caseload start from, assigned by
    /// the admin in this order: Wendy (social worker) and Carl (carer) look after Sam, Ivy
    /// (social worker) looks after Alex. The assignments' ids.
    @discardableResult
    func assignTeams() async throws -> (samWendy: UUID, samCarl: UUID, alexIvy: UUID) {
        let t = tenant
        return (
            try await assign(t.sam, t.wendy, .socialWorker), try await assign(t.sam, t.carl, .carer),
            try await assign(t.alex, t.ivy, .socialWorker)
        )
    }

    /// Ends the assignment `id` as the tenant's admin.
    func end(_ id: UUID) async throws {
        try await pools.endAssignment(id, by: tenant.context(tenant.admin))
    }

    /// Runs one statement in `context`, rolled back afterwards: the rows it returned or changed,
    /// or the SQLSTATE and constraint it failed with.
    func attempt(_ context: AccountContext, _ sql: String, _ parameters: (any PostgresEncodable)?...) async -> Outcome {
        await pools.app.attempt(context.settings, sql, parameters, namingConstraint: true)
    }

    /// The ids `sql` (a select of one uuid column) returns in `person`'s context.
    func ids(_ person: UUID, _ sql: String, of tenant: CaseloadTenant? = nil) async throws -> Set<UUID> {
        try await asPerson(person, of: tenant) { tx throws in Set(try await tx.query(sql).map { try $0.decode(UUID.self, at: 0) }) }
    }
}
