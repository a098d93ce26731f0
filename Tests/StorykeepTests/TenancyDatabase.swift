import Foundation
import Logging
import Postgres

/// The database the tenancy tests run against: `DATABASE_URL` (as `storykeep_app`) and
/// `STORYKEEP_OWNER_DATABASE_URL` (as `storykeep_owner`), which `make test` exports. Without them
/// every tenancy test fails with a message saying so; none is skipped.
enum TenancyDatabase {
    static let appRole = "storykeep_app"
    static let ownerRole = "storykeep_owner"
    static let logger = Logger(label: "tenancy-tests")

    /// The repository's `Migrations/` directory.
    static let migrations = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations")

    struct Missing: Error, CustomStringConvertible {
        let variable: String
        var description: String {
            "\(variable) is not set: the tenancy tests need PostgreSQL. Run them with `make test`, which starts "
                + "a throw-away cluster and exports DATABASE_URL and STORYKEEP_OWNER_DATABASE_URL."
        }
    }

    static func url(_ variable: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else {
            throw Missing(variable: variable)
        }
        return value
    }

    /// Applies the migrations once per test process (`make test` has usually done it already).
    static func migrated() async throws { try await migration.value }

    private static let migration = Task {
        let pool = try ownerPool()
        do {
            try await Migrator(pool: pool, logger: logger).migrate(directory: migrations)
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
    }

    static func appPool(size: Int = 4) throws -> PostgresPool {
        PostgresPool(configuration: .init(connectionString: try url("DATABASE_URL"), poolSize: size), logger: logger)
    }

    static func ownerPool(size: Int = 2) throws -> PostgresPool {
        PostgresPool(
            configuration: .init(connectionString: try url("STORYKEEP_OWNER_DATABASE_URL"), poolSize: size), logger: logger)
    }
}

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
        try await TenancyDatabase.migrated()
        let scratch = TenancyScratch(
            schema: "tenancy_test_" + UUID().uuidString.prefix(8).lowercased(),
            app: try TenancyDatabase.appPool(size: appPoolSize),
            owner: try TenancyDatabase.ownerPool())
        do {
            try await scratch.owner.transaction { tx in
                try await tx.executeScript("""
                    create schema \(scratch.schema);
                    grant usage on schema \(scratch.schema) to storykeep_app;
                    """ + scratch.sql(setup))
            }
            try await body(scratch)
        } catch {
            await scratch.tearDown()
            throw error
        }
        await scratch.tearDown()
    }

    private func tearDown() async {
        _ = try? await owner.transaction { try await $0.executeScript("drop schema if exists \(schema) cascade") }
        await app.close()
        await owner.close()
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
            try await RLSCatalogCheck.violations(on: tx, schemas: [schema], appRole: TenancyDatabase.appRole)
        }
    }
}

/// The outcome of a statement: the rows it returned, or the SQLSTATE it failed with.
enum Outcome: Equatable, CustomStringConvertible {
    case rows(Int)
    case failed(String)

    var description: String {
        switch self {
        case .rows(let count): "\(count) rows"
        case .failed(let state): "error \(state)"
        }
    }
}

extension TenancyScratch {
    /// Runs one statement as storykeep_app in `tenant`'s context, in a transaction rolled back
    /// afterwards, and reports its outcome.
    func attempt(_ tenant: UUID?, _ sql: String, _ parameters: (any PostgresEncodable)?...) async -> Outcome {
        struct Undo: Error { let count: Int }
        do {
            try await asApp(tenant) { tx in
                let rows = try await tx.query(self.sql(sql), parameters: parameters)
                throw Undo(count: max(rows.count, rows.affectedRows))
            }
            return .failed("no rollback")
        } catch let undo as Undo {
            return .rows(undo.count)
        } catch let error as PostgresError {
            return .failed(error.sqlState ?? "\(error.kind)")
        } catch {
            return .failed("\(error)")
        }
    }
}
