import Foundation
import Postgres
import Testing

import Storykeep
@testable import StorykeepCore

// The caseload's and the notifications' policies (Migrations/0010_caseload.sql, 0011) against the
// real PostgreSQL of TenancyDatabase (`make test`), as the server's role. Each test makes tenants
// of its own, so the tests run in parallel on one database.

/// A tenant of its own: an admin; Sam and Alex, young people; Wendy and Ivy, social workers;
/// Carl, a carer; Dan, a social worker switched off. Made through the policies, as the server
/// makes them. Nobody is assigned yet.
struct CaseloadTenant {
    let id = UUID()
    let admin = UUID(), sam = UUID(), alex = UUID(), wendy = UUID(), ivy = UUID(), carl = UUID(), dan = UUID()

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

    init(app: PostgresPool, owner: PostgresPool) async throws {
        let (id, admin, sam, alex, wendy, ivy, carl, dan) = (id, admin, sam, alex, wendy, ivy, carl, dan)
        let slug = "caseload-" + id.uuidString.prefix(8).lowercased()
        let suffix = String(slug.suffix(8))
        try await owner.transaction { tx throws in
            _ = try await tx.execute("insert into tenants (tenant_id, slug, display_name) values ($1, $2, $2)", id, slug)
        }
        try await app.transaction(settings: AccountContext.tenantOperator(tenantID: id).settings) { tx throws in
            try await tx.execute(
                """
                insert into people (tenant_id, id, role, username, email, display_name, external_ref, disabled_at) values
                    (current_tenant_id(), $1, 'AGENCY_ADMIN', null, 'admin@' || $8 || '.example', 'Ada Admin', null, null),
                    (current_tenant_id(), $2, 'YOUNG_PERSON', 'sam-' || $8, null, 'Sam Smith', 'CASE-SAM', null),
                    (current_tenant_id(), $3, 'YOUNG_PERSON', 'alex-' || $8, null, 'Alex Jones', 'CASE-ALEX', null),
                    (current_tenant_id(), $4, 'SOCIAL_WORKER', null, 'wendy@' || $8 || '.example', 'Wendy Walker', null, null),
                    (current_tenant_id(), $5, 'SOCIAL_WORKER', null, 'ivy@' || $8 || '.example', 'Ivy Irwin', null, null),
                    (current_tenant_id(), $6, 'CARER', null, 'carl@' || $8 || '.example', 'Carl Carter', null, null),
                    (current_tenant_id(), $7, 'SOCIAL_WORKER', null, 'dan@' || $8 || '.example', 'Dan Doe', null, now())
                """, admin, sam, alex, wendy, ivy, carl, dan, suffix)
        }
    }
}

/// The pools and a fresh tenant of one test; the pools are closed whatever happens.
struct CaseloadDatabase {
    let app: PostgresPool
    let owner: PostgresPool
    let tenant: CaseloadTenant

    static func run(_ body: (CaseloadDatabase) async throws -> Void) async throws {
        try await TenancyDatabase.migrated()
        let app = try TenancyDatabase.appPool(size: 3)
        let owner = try TenancyDatabase.ownerPool(size: 1)
        do {
            try await body(CaseloadDatabase(app: app, owner: owner, tenant: try await CaseloadTenant(app: app, owner: owner)))
        } catch {
            await app.close()
            await owner.close()
            throw error
        }
        await app.close()
        await owner.close()
    }

    /// Another tenant, with people of its own.
    func otherTenant() async throws -> CaseloadTenant { try await CaseloadTenant(app: app, owner: owner) }

    /// Runs `body` as storykeep_app in `person`'s context (of `tenant`, by default this test's),
    /// committing at the end.
    @discardableResult
    func asPerson<T>(_ person: UUID, of tenant: CaseloadTenant? = nil, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await app.transaction(settings: (tenant ?? self.tenant).context(person).settings, body)
    }

    /// Assigns `adult` to `youngPerson` as the admin would, with a statement of SQL: the id.
    @discardableResult
    func assign(_ youngPerson: UUID, _ adult: UUID, _ relationship: String) async throws -> UUID {
        try await asPerson(tenant.admin) { tx throws in
            try await tx.query(
                """
                insert into assignments (tenant_id, young_person_id, adult_id, relationship, assigned_by)
                values (current_tenant_id(), $1, $2, $3::assignment_relationship, current_person_id())
                returning id
                """, youngPerson, adult, relationship)[0].decode(UUID.self, at: 0)
        }
    }

    /// Ends the assignment `id` as the admin would.
    func end(_ id: UUID) async throws {
        try await asPerson(tenant.admin) { tx throws in
            let ended = try await tx.execute(
                "update assignments set until = clock_timestamp(), ended_by = current_person_id() where id = $1 and until is null", id)
            #expect(ended == 1)
        }
    }

    /// Runs one statement in `context`, in a transaction rolled back afterwards, and reports its
    /// outcome: the rows it returned or changed, or the SQLSTATE (and constraint) it failed with.
    func attempt(_ context: AccountContext, _ sql: String, _ parameters: (any PostgresEncodable)?...) async -> Outcome {
        struct Undo: Error { let count: Int }
        do {
            try await app.transaction(settings: context.settings) { tx throws in
                let rows = try await tx.query(sql, parameters: parameters)
                throw Undo(count: max(rows.count, rows.affectedRows))
            }
            return .failed("no rollback")
        } catch let undo as Undo {
            return .rows(undo.count)
        } catch let error as PostgresError {
            return .failed([error.sqlState ?? "\(error.kind)", error.constraintName].compactMap { $0 }.joined(separator: " "))
        } catch {
            return .failed("\(error)")
        }
    }

    /// The ids `sql` (a select of one uuid column) returns in `person`'s context.
    func ids(_ person: UUID, _ sql: String, of tenant: CaseloadTenant? = nil) async throws -> Set<UUID> {
        try await asPerson(person, of: tenant) { tx throws in Set(try await tx.query(sql).map { try $0.decode(UUID.self, at: 0) }) }
    }
}
