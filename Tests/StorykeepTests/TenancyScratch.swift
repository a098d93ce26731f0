import Foundation
import Postgres
import StorykeepTestSupport

/// A schema of one test's own, made by the owner from `setup` (where `$s` stands for the schema's
/// name), with an app pool and an owner pool; all dropped at the end.
///
/// The tables a test makes follow (or, to show a leak, break) the pattern of
/// Migrations/0001_tenancy.sql, and use its `public.current_tenant_id()`.
struct TenancyScratch: Sendable {
    let schema: String
    let app: PostgresPool
    let owner: PostgresPool
    let tenantA = UUID()
    let tenantB = UUID()

    static func run(appPoolSize: Int = 4, setup: String, _ body: (TenancyScratch) async throws -> Void) async throws {
        try await TestPools.run(app: appPoolSize) { pools in
            let scratch = TenancyScratch(
                schema: "tenancy_test_" + UUID().uuidString.prefix(8).lowercased(), app: pools.app, owner: pools.owner)
            do {
                try await scratch.owner.transaction { tx in
                    try await tx.executeScript("""
                        create schema \(scratch.schema);
                        grant usage on schema \(scratch.schema) to storykeep_app;
                        """ + scratch.sql(setup))
                }
                try await body(scratch)
            } catch {
                await scratch.dropSchema()
                throw error
            }
            await scratch.dropSchema()
        }
    }

    private func dropSchema() async {
        _ = try? await owner.transaction { try await $0.executeScript("drop schema if exists \(schema) cascade") }
    }

    /// `text` with `$s` replaced by the schema's name.
    func sql(_ text: String) -> String { text.replacingOccurrences(of: "$s", with: schema) }

    /// The request context of `tenant`, as domain code sets it.
    func context(_ tenant: UUID) -> [String: String] {
        ["storykeep.tenant_id": tenant.uuidString, "storykeep.person_id": UUID().uuidString, "storykeep.role": "YOUNG_PERSON"]
    }

    /// Runs `body` as storykeep_app in `tenant`'s context.
    @discardableResult
    func asApp<T>(_ tenant: UUID?, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await app.transaction(settings: tenant.map(context) ?? [:], body)
    }

    /// Runs `body` as the owner in `tenant`'s context (the owner is held to the policies too).
    @discardableResult
    func asOwner<T>(_ tenant: UUID, _ body: (PostgresTransaction) async throws -> T) async throws -> T {
        try await owner.transaction(settings: context(tenant), body)
    }

    /// The catalog check's findings for this schema.
    func violations() async throws -> [RLSCatalogCheck.Violation] {
        try await owner.transaction { tx in
            try await RLSCatalogCheck.violations(on: tx, schemas: [schema], appRole: TestDatabase.appRole)
        }
    }
}

extension TenancyScratch {
    /// Runs one statement as storykeep_app in `tenant`'s context, in a transaction rolled back
    /// afterwards, and reports its outcome.
    func attempt(_ tenant: UUID?, _ sql: String, _ parameters: (any PostgresEncodable)?...) async -> Outcome {
        await app.attempt(tenant.map(context) ?? [:], self.sql(sql), parameters)
    }
}
