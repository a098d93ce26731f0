import Foundation
import Postgres
import Testing

/// Two tenants with data, tables built to the pattern of Migrations/0001_tenancy.sql; as
/// storykeep_app with tenant A's context, nothing reaches tenant B.
@Suite struct TenancyIsolationTests {
    static let setup = """
        create table $s.people (
            tenant_id uuid not null, id uuid not null default gen_random_uuid(), name text not null,
            primary key (tenant_id, id));
        create table $s.entries (
            tenant_id uuid not null, id uuid not null default gen_random_uuid(), author_id uuid not null, body text,
            primary key (tenant_id, id),
            foreign key (tenant_id, author_id) references $s.people (tenant_id, id));
        """ + TenancyLeakTests.guarded("people") + TenancyLeakTests.guarded("entries")

    /// The ids of one tenant's rows.
    struct Data {
        var people: [UUID] = []
        var entries: [UUID] = []
    }

    /// Gives `tenant` `people` people and `entries` entries, written by the owner in its context.
    static func seed(_ s: TenancyScratch, _ tenant: UUID, people: Int, entries: Int) async throws -> Data {
        try await s.asOwner(tenant) { tx in
            var data = Data()
            for index in 0..<people {
                data.people.append(try await tx.query(
                    s.sql("insert into $s.people (tenant_id, name) values ($1, $2) returning id"), tenant, "person \(index)"
                )[0].decode(UUID.self, at: 0))
            }
            for index in 0..<entries {
                data.entries.append(try await tx.query(
                    s.sql("insert into $s.entries (tenant_id, author_id, body) values ($1, $2, $3) returning id"),
                    tenant, data.people[index % people], "entry \(index)"
                )[0].decode(UUID.self, at: 0))
            }
            return data
        }
    }

    /// Everything of `tenant`'s, as text, read by the owner in its context.
    static func snapshot(_ s: TenancyScratch, _ tenant: UUID) async throws -> String {
        try await s.asOwner(tenant) { tx in
            try await tx.query(s.sql("""
                select coalesce(string_agg(row(p.*)::text, ';' order by p.id), '') || '|'
                    || coalesce((select string_agg(row(e.*)::text, ';' order by e.id) from $s.entries e), '')
                from $s.people p
                """))[0].decode(String.self, at: 0)
        }
    }

    @Test func tenantAsStatementsNeverTouchTenantB() async throws {
        try await TenancyScratch.run(setup: Self.setup) { s in
            let a = try await Self.seed(s, s.tenantA, people: 3, entries: 5)
            let b = try await Self.seed(s, s.tenantB, people: 2, entries: 4)
            let before = try await Self.snapshot(s, s.tenantB)
            let (tenantB, entryB, personB, entryA, personA) = (s.tenantB, b.entries[0], b.people[0], a.entries[0], a.people[0])

            // Each statement's first column is a tenant_id; every row it returns must be A's.
            let attempts: [(String, [(any PostgresEncodable)?])] = [
                ("select tenant_id from $s.entries", []),
                ("select tenant_id from $s.entries where tenant_id = $1", [tenantB]),
                ("select tenant_id from $s.entries where id = $1", [entryB]),
                ("select tenant_id from $s.entries where author_id = $1", [personB]),
                ("select tenant_id from $s.people where id = any($1)", [b.people]),
                ("select e.tenant_id from $s.entries e join $s.people p on (p.tenant_id, p.id) = (e.tenant_id, e.author_id)", []),
                ("select tenant_id from $s.entries union all select tenant_id from $s.people", []),
                ("select (select tenant_id from $s.entries where tenant_id = $1 limit 1)", [tenantB]),
                ("update $s.entries set body = 'x' returning tenant_id", []),
                ("update $s.entries set body = 'x' where tenant_id = $1 returning tenant_id", [tenantB]),
                ("update $s.entries set body = 'x' where id = $1 returning tenant_id", [entryB]),
                ("update $s.entries set tenant_id = $1 where id = $2 returning tenant_id", [tenantB, entryA]),
                ("update $s.people set name = 'x' from $s.entries e where e.author_id = $s.people.id returning $s.people.tenant_id", []),
                ("delete from $s.entries returning tenant_id", []),
                ("delete from $s.entries where tenant_id = $1 returning tenant_id", [tenantB]),
                ("delete from $s.people where id = $1 returning tenant_id", [personB]),
                ("insert into $s.entries (tenant_id, author_id, body) values ($1, $2, 'x') returning tenant_id", [tenantB, personB]),
                ("insert into $s.entries (tenant_id, author_id, body) values ($1, $2, 'x') returning tenant_id", [s.tenantA, personB]),
                ("insert into $s.entries (tenant_id, author_id, body) select tenant_id, author_id, body from $s.entries where tenant_id = $1 returning tenant_id", [tenantB]),
                ("insert into $s.entries (tenant_id, id, author_id) values ($1, $2, $3) on conflict (tenant_id, id) do update set body = 'x' returning tenant_id", [tenantB, entryB, personB]),
                ("insert into $s.people (tenant_id, name) values ($1, 'intruder') returning tenant_id", [tenantB]),
                ("insert into tenants (slug, display_name) values ('intruder', 'x') returning tenant_id", []),
                ("update tenants set enabled = false where tenant_id = $1 returning tenant_id", [tenantB]),
                ("delete from tenants returning tenant_id", []),
                ("truncate $s.entries", []),
            ]
            // Only refusals for lack of rights (42501) or of a visible referenced row (23503).
            let refusals: Set<String> = [PostgresError.SQLState.insufficientPrivilege, PostgresError.SQLState.foreignKeyViolation]
            var refused = 0
            for (sql, parameters) in attempts {
                struct Undo: Error { let tenants: [UUID?] }
                do {
                    try await s.asApp(s.tenantA) { tx in
                        let rows = try await tx.query(s.sql(sql), parameters: parameters)
                        throw Undo(tenants: try rows.map { try $0.decode(UUID?.self, at: 0) })
                    }
                } catch let undo as Undo {
                    let foreign = undo.tenants.compactMap { $0 }.filter { $0 != s.tenantA }
                    #expect(foreign.isEmpty, "\(sql) reached another tenant's rows")
                } catch let error as PostgresError {
                    #expect(error.sqlState.map(refusals.contains) == true, "\(sql): \(error)")
                    refused += 1
                }
            }
            #expect(refused == 9)

            // The same attempts at B's rows, committed this time.
            let changed = try await s.asApp(s.tenantA) { tx in [
                try await tx.execute(s.sql("update $s.entries set body = 'x' where id = any($1)"), b.entries),
                try await tx.execute(s.sql("delete from $s.entries where tenant_id = $1"), tenantB),
                try await tx.execute(s.sql("delete from $s.people where id = any($1)"), b.people),
                try await tx.execute(s.sql("update $s.people set name = 'x' where id = $1"), personA),
            ] }
            #expect(changed == [0, 0, 0, 1])
            #expect(try await Self.snapshot(s, s.tenantB) == before)
        }
    }

    @Test func fiftyConcurrentMixedTenantTransactionsNeverSeeEachOther() async throws {
        try await TenancyScratch.run(appPoolSize: 8, setup: Self.setup) { s in
            let a = try await Self.seed(s, s.tenantA, people: 2, entries: 10)
            let b = try await Self.seed(s, s.tenantB, people: 3, entries: 7)
            let data = [s.tenantA: a, s.tenantB: b]

            // Tenant A, tenant B, or no tenant at all, interleaved on eight shared connections.
            let tenants: [UUID?] = (0..<50).map { [s.tenantA, s.tenantB, nil][$0 % 3] }
            let written = try await withThrowingTaskGroup(of: (UUID?, Int).self) { group in
                for (index, tenant) in tenants.enumerated() {
                    group.addTask {
                        try await s.asApp(tenant) { tx in
                            var inserted = 0
                            if let tenant, let own = data[tenant] {
                                inserted = try await tx.execute(
                                    s.sql("insert into $s.entries (tenant_id, author_id, body) values ($1, $2, $3)"),
                                    tenant, own.people[index % own.people.count], "written by request \(index)")
                            }
                            _ = try await tx.query("select pg_sleep(0.005)")
                            let seen = try await tx.query(s.sql(
                                "select tenant_id from $s.entries union all select tenant_id from $s.people"))
                            let tenantsSeen = Set(try seen.map { try $0.decode(UUID.self, at: 0) })
                            if let tenant {
                                #expect(tenantsSeen == [tenant], "request \(index) saw another tenant")
                            } else {
                                #expect(tenantsSeen.isEmpty, "request \(index) without a tenant saw rows")
                            }
                            return (tenant, inserted)
                        }
                    }
                }
                var written: [UUID: Int] = [:]
                for try await (tenant, inserted) in group where tenant != nil { written[tenant!, default: 0] += inserted }
                return written
            }
            for (tenant, seeded) in [(s.tenantA, a.entries.count), (s.tenantB, b.entries.count)] {
                let count = try await s.asApp(tenant) { tx in
                    try await tx.query(s.sql("select count(*) from $s.entries"))[0].decode(Int.self, at: 0)
                }
                #expect(count == seeded + written[tenant, default: 0])
            }
        }
    }
}
