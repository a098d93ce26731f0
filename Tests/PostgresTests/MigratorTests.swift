import Foundation
import Postgres
import StorykeepTestSupport
import Testing

/// The migrator, against the real server as the owner role. Each test works in a schema of its
/// own (its files create tables there, its history table lives there) and drops it at the end.
@Suite struct MigratorTests {
    /// A scratch schema, a directory of migration files, and a migrator for them.
    struct Fixture {
        let pool: PostgresPool
        let schema: String
        let directory: URL
        let migrator: Migrator

        init() throws {
            pool = try TestDatabase.ownerPool()
            schema = "migrator_test_" + UUID().uuidString.prefix(8).lowercased()
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(schema)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            migrator = Migrator(pool: pool, table: "\(schema).schema_migrations", logger: TestDatabase.logger)
        }

        /// Writes a migration file; `$s` in `sql` stands for the scratch schema.
        func write(_ name: String, _ sql: String) throws {
            try Data(sql.replacingOccurrences(of: "$s", with: schema).utf8)
                .write(to: directory.appendingPathComponent(name))
        }

        func remove(_ name: String) throws {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }

        func run(_ body: (Fixture) async throws -> Void) async throws {
            do {
                try await pool.transaction { try await $0.executeScript("create schema \(schema)") }
                try await body(self)
            } catch {
                await cleanUp()
                throw error
            }
            await cleanUp()
        }

        private func cleanUp() async {
            _ = try? await pool.transaction { try await $0.executeScript("drop schema if exists \(schema) cascade") }
            try? FileManager.default.removeItem(at: directory)
            await pool.close()
        }

        func history() async throws -> [(Int, String, String)] {
            try await pool.transaction { tx in
                try await tx.query("select version, name, checksum from \(schema).schema_migrations order by version").map {
                    (try $0.decode(Int.self, at: 0), try $0.decode(String.self, at: 1), try $0.decode(String.self, at: 2))
                }
            }
        }
    }

    @Test func appliesFilesInOrderOnceEach() async throws {
        try await Fixture().run { f in
            try f.write("0002_second.sql", "insert into $s.t values (2);")
            try f.write("0001_first.sql", "create table $s.t (x int);\n")
            try f.write("README.md", "not a migration")
            #expect(try await f.migrator.isCurrent(directory: f.directory) == false)

            let applied = try await f.migrator.migrate(directory: f.directory)
            #expect(applied.map(\.fileName) == ["0001_first.sql", "0002_second.sql"])
            let history = try await f.history()
            #expect(history.map(\.0) == [1, 2])
            #expect(history.map(\.1) == ["first", "second"])
            #expect(try await f.migrator.isCurrent(directory: f.directory))

            #expect(try await f.migrator.migrate(directory: f.directory).isEmpty)
            try f.write("0003_third.sql", "insert into $s.t values (3);")
            #expect(try await f.migrator.pending(directory: f.directory).map(\.version) == [3])
            #expect(try await f.migrator.isCurrent(directory: f.directory) == false)
            #expect(try await f.migrator.migrate(directory: f.directory).map(\.version) == [3])
            let values = try await f.pool.transaction { tx in
                try await tx.query("select array_agg(x order by x) from \(f.schema).t")[0].decode([Int].self, at: 0)
            }
            #expect(values == [2, 3])
        }
    }

    @Test func checksumIsTheFilesSHA256() async throws {
        try await Fixture().run { f in
            try f.write("0001_noop.sql", "select 1;\n")
            try await f.migrator.migrate(directory: f.directory)
            // As `printf 'select 1;\n' | sha256sum` prints it.
            #expect(try await f.history().first?.2 == "4a45092ccf992ea92250053a80b931b787924ba61648f420555511b84f10ab6c")
        }
    }

    @Test func aFailingMigrationLeavesNothingBehind() async throws {
        try await Fixture().run { f in
            try f.write("0001_ok.sql", "create table $s.ok (x int);")
            try f.write("0002_broken.sql", "create table $s.half (x int);\ninsert into $s.half values (1);\nselect 1/0;")
            let error = await #expect(throws: PostgresError.self) { try await f.migrator.migrate(directory: f.directory) }
            #expect(error?.sqlState == "22012")
            #expect(error?.message.contains("0002_broken.sql") == true)
            #expect(try await f.history().map(\.0) == [1])
            let half = try await f.pool.transaction { tx in
                try await tx.query("select to_regclass($1) is null", "\(f.schema).half")[0].decode(Bool.self, at: 0)
            }
            #expect(half, "the failed file's own statements were rolled back")
            // Fixed, it applies.
            try f.write("0002_broken.sql", "create table $s.half (x int);")
            #expect(try await f.migrator.migrate(directory: f.directory).map(\.version) == [2])
        }
    }

    @Test func refusesAChangedOrMissingAppliedFile() async throws {
        try await Fixture().run { f in
            try f.write("0001_a.sql", "create table $s.a (x int);")
            try f.write("0002_b.sql", "create table $s.b (x int);")
            try await f.migrator.migrate(directory: f.directory)

            try f.write("0001_a.sql", "create table $s.a (x int, y int);")
            try f.write("0003_c.sql", "create table $s.c (x int);")
            let changed = await #expect(throws: PostgresError.self) { try await f.migrator.migrate(directory: f.directory) }
            #expect(changed?.kind == .migration)
            #expect(changed?.message.contains("0001_a.sql has changed") == true)
            #expect(try await f.migrator.isCurrent(directory: f.directory) == false)
            #expect(try await f.history().count == 2, "nothing applied after the refusal")

            try f.write("0001_a.sql", "create table $s.a (x int);")
            try f.remove("0002_b.sql")
            let missing = await #expect(throws: PostgresError.self) { try await f.migrator.migrate(directory: f.directory) }
            #expect(missing?.message.contains("applied migration 2 (b)") == true)
        }
    }

    @Test func refusesMisnamedAndDuplicateFiles() async throws {
        try await Fixture().run { f in
            try f.write("1_ok.sql", "select 1;")
            try f.write("create_things.sql", "select 1;")
            let misnamed = await #expect(throws: PostgresError.self) { try await f.migrator.migrate(directory: f.directory) }
            #expect(misnamed?.message.contains("create_things.sql is not named NNNN_name.sql") == true)
            try f.remove("create_things.sql")
            try f.write("0001_again.sql", "select 1;")
            let duplicate = await #expect(throws: PostgresError.self) { try await f.migrator.migrate(directory: f.directory) }
            #expect(duplicate?.message.contains("share version 1") == true)
        }
    }

    @Test func concurrentMigratorsApplyEachFileOnce() async throws {
        try await Fixture().run { f in
            try f.write("0001_table.sql", "create table $s.runs (x int);")
            try f.write("0002_slow.sql", "select pg_sleep(0.2); insert into $s.runs values (1);")
            let applied = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let migrator = Migrator(pool: f.pool, table: "\(f.schema).schema_migrations", logger: TestDatabase.logger)
                        return try await migrator.migrate(directory: f.directory).count
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(applied == 2)
            let runs = try await f.pool.transaction { tx in
                try await tx.query("select count(*) from \(f.schema).runs")[0].decode(Int.self, at: 0)
            }
            #expect(runs == 1)
        }
    }
}
