import Foundation
import Logging

/// Applies a directory of ordered SQL files to a database, once each.
///
/// Files are named `NNNN_name.sql`; they run in version order, each in its own transaction, and
/// each is recorded in a history table (`version`, `name`, `checksum` — SHA-256 of the file's
/// bytes — and `applied_at`). A file that was applied and has changed since is refused, and so
/// is a database that has applied a version the directory lacks: both mean the code and the
/// database disagree, which a person must resolve.
///
/// Concurrent migrators (two servers starting at once) serialise on an advisory lock. A file runs
/// inside a transaction, so it must not contain `BEGIN`/`COMMIT` or statements that refuse a
/// transaction block (`CREATE INDEX CONCURRENTLY`).
public struct Migrator: Sendable {
    /// One migration file.
    public struct Migration: Sendable, Hashable {
        public let version: Int
        public let name: String
        public let file: URL
        public let contents: [UInt8]
        public var fileName: String { file.lastPathComponent }
    }

    public let pool: PostgresPool
    /// The history table, optionally schema-qualified.
    public let table: String
    private let logger: Logger

    public init(pool: PostgresPool, table: String = "schema_migrations", logger: Logger) {
        precondition(
            table.wholeMatch(of: /[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)?/) != nil,
            "the history table must be a plain lowercase (optionally schema-qualified) name")
        self.pool = pool
        self.table = table
        self.logger = logger
    }

    /// Reads `NNNN_name.sql` files from `directory`, in version order. Other files are ignored,
    /// but a `.sql` file with another name, or two files with one version, is an error.
    public static func migrations(in directory: URL) throws -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw PostgresError(kind: .migration, message: "cannot read migrations directory \(directory.path): \(error)")
        }
        var migrations: [Migration] = []
        for fileName in names where fileName.hasSuffix(".sql") {
            guard let match = fileName.wholeMatch(of: /([0-9]+)_([A-Za-z0-9_\-]+)\.sql/), let version = Int(match.1) else {
                throw PostgresError(kind: .migration, message: "migration file \(fileName) is not named NNNN_name.sql")
            }
            let file = directory.appendingPathComponent(fileName)
            let contents = try [UInt8](Data(contentsOf: file))
            migrations.append(Migration(version: version, name: String(match.2), file: file, contents: contents))
        }
        migrations.sort { $0.version < $1.version }
        for (first, second) in zip(migrations, migrations.dropFirst()) where first.version == second.version {
            throw PostgresError(
                kind: .migration, message: "migrations \(first.fileName) and \(second.fileName) share version \(first.version)")
        }
        return migrations
    }

    /// Applies the migrations of `directory` not yet applied, and returns them in the order they ran.
    @discardableResult
    public func migrate(directory: URL) async throws -> [Migration] {
        let migrations = try Self.migrations(in: directory)
        return try await pool.withConnection { connection in
            _ = try await connection.query("select pg_advisory_lock(hashtext($1))", table)
            do {
                let applied = try await run(migrations, on: connection)
                _ = try await connection.query("select pg_advisory_unlock(hashtext($1))", table)
                return applied
            } catch {
                _ = try? await connection.query("select pg_advisory_unlock(hashtext($1))", table)
                throw error
            }
        }
    }

    /// The migrations of `directory` not yet applied. Throws if the database disagrees with the
    /// directory (a changed file, an unknown applied version).
    public func pending(directory: URL) async throws -> [Migration] {
        let migrations = try Self.migrations(in: directory)
        return try await pool.withConnection { try await pending(migrations, on: $0) }
    }

    /// Whether every migration of `directory` is applied, unchanged, and nothing else is: the
    /// readiness probe's question. Needs only `SELECT` on the history table.
    public func isCurrent(directory: URL) async throws -> Bool {
        do {
            return try await pending(directory: directory).isEmpty
        } catch let error as PostgresError where error.kind == .migration {
            logger.warning("migrations are not current", metadata: ["reason": "\(error.message)"])
            return false
        }
    }

    // MARK: Internals

    private func run(_ migrations: [Migration], on connection: PostgresConnection) async throws -> [Migration] {
        try await connection.executeScript("""
            create table if not exists \(table) (
                version bigint primary key,
                name text not null,
                checksum text not null,
                applied_at timestamptz not null default now()
            )
            """)
        let pending = try await pending(migrations, on: connection)
        for migration in pending {
            let clock = ContinuousClock()
            let start = clock.now
            do {
                try await connection.transaction { tx in
                    try await tx.executeScript(String(decoding: migration.contents, as: UTF8.self))
                    try await tx.execute(
                        "insert into \(table) (version, name, checksum) values ($1, $2, encode(sha256($3), 'hex'))",
                        migration.version, migration.name, migration.contents)
                }
            } catch var error as PostgresError {
                error.message = "migration \(migration.fileName) failed: \(error.message)"
                throw error
            }
            logger.info(
                "applied migration",
                metadata: ["file": "\(migration.fileName)", "duration": "\(clock.now - start)"])
        }
        return pending
    }

    private func pending(_ migrations: [Migration], on connection: PostgresConnection) async throws -> [Migration] {
        let exists = try await connection.query("select to_regclass($1) is not null", table)[0].decode(Bool.self, at: 0)
        guard exists else { return migrations }
        var applied: [Int: (name: String, checksum: String)] = [:]
        for row in try await connection.query("select version, name, checksum from \(table)") {
            applied[try row.decode(Int.self, at: 0)] = (try row.decode(String.self, at: 1), try row.decode(String.self, at: 2))
        }
        let checksums = try await connection.query(
            "select encode(sha256(file), 'hex') from unnest($1::bytea[]) with ordinality as f(file, n) order by n",
            migrations.map(\.contents)
        ).map { try $0.decode(String.self, at: 0) }

        let known = Set(migrations.map(\.version))
        if let unknown = applied.keys.filter({ !known.contains($0) }).min() {
            throw PostgresError(
                kind: .migration,
                message: "the database has applied migration \(unknown) (\(applied[unknown]!.name)), which the directory lacks")
        }
        for (migration, checksum) in zip(migrations, checksums) {
            if let record = applied[migration.version], record.checksum != checksum {
                throw PostgresError(
                    kind: .migration,
                    message: "migration \(migration.fileName) has changed since it was applied "
                        + "(checksum \(record.checksum), now \(checksum)); add a new migration instead")
            }
        }
        return migrations.filter { applied[$0.version] == nil }
    }
}
