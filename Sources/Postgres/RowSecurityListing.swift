/// Reads PostgreSQL's catalog and writes out the row-level security of every table of a schema
/// as SQL a reader can follow top to bottom: for each table, whether row-level security is
/// enabled and forced (`alter table`), then each of its policies as a `create policy` with its
/// command, permissive or restrictive, roles, USING and WITH CHECK, in PostgreSQL's own words
/// (`pg_get_expr`). Tables in name order, each table's policies in name order, so the same
/// catalog always gives the same text: kept in a file, it shows every table's current policies
/// in one place, whatever number of migrations wrote and rewrote them, and a test can hold the
/// file to the catalog.
///
/// Like ``RLSCatalogCheck`` it knows no application: the schema is a parameter. Reading the
/// catalog needs no privilege, so any role may list it.
public enum RowSecurityListing {
    /// The listing of the tables of `schema`: a paragraph per table, separated by blank lines.
    public static func sql(on database: some PostgresQueryable, schema: String = "public") async throws -> String {
        var tables: [Table] = []
        for row in try await database.query(catalog, schema) {
            let name = try row.decode(String.self, at: 0)
            if tables.last?.name != name {
                tables.append(Table(name: name, enabled: try row.decode(Bool.self, at: 1), forced: try row.decode(Bool.self, at: 2)))
            }
            guard let policy = try row.decode(String?.self, at: 3) else { continue }
            let code = try row.decode(String.self, at: 4)
            guard let command = commands[code] else {
                throw PostgresError(kind: .decoding, message: "policy \(policy) on \(name): unknown command \(code)")
            }
            tables[tables.count - 1].policies.append(
                Policy(
                    name: policy, command: command, permissive: try row.decode(Bool.self, at: 5),
                    roles: try row.decode([String].self, at: 6), using: try row.decode(String?.self, at: 7),
                    withCheck: try row.decode(String?.self, at: 8)))
        }
        return tables.map(\.sql).joined(separator: "\n")
    }

    /// `pg_policy.polcmd` in SQL's words.
    static let commands = ["*": "all", "r": "select", "a": "insert", "w": "update", "d": "delete"]

    struct Table {
        var name: String
        var enabled: Bool
        var forced: Bool
        var policies: [Policy] = []

        /// A comment that sums it up, its two `alter table` statements, then its policies.
        var sql: String {
            let count = policies.count == 0 ? "no policies" : policies.count == 1 ? "1 policy" : "\(policies.count) policies"
            let summary = "-- \(name): row-level security \(enabled ? "enabled" : "disabled"), \(forced ? "forced" : "not forced"); \(count)"
            let alters = [
                "alter table \(name) \(enabled ? "enable" : "disable") row level security;",
                "alter table \(name) \(forced ? "" : "no ")force row level security;",
            ]
            return ([summary] + alters + policies.map { "\n" + $0.sql(on: name) }).joined(separator: "\n") + "\n"
        }
    }

    struct Policy {
        var name: String
        var command: String
        var permissive: Bool
        var roles: [String]
        var using: String?
        var withCheck: String?

        /// Its `create policy` statement, every clause spelt out.
        func sql(on table: String) -> String {
            var lines = [
                "create policy \(name) on \(table) as \(permissive ? "permissive" : "restrictive") for \(command) "
                    + "to \(roles.joined(separator: ", "))"
            ]
            if let using { lines.append("    using (\(using))") }
            if let withCheck { lines.append("    with check (\(withCheck))") }
            return lines.joined(separator: "\n") + ";"
        }
    }

    /// $1 the schema. A row per policy (a table without one: a row of nulls after its flags):
    /// table, enabled, forced, policy, command (`pg_policy.polcmd`), permissive, roles (names
    /// quoted as SQL needs them, `public` for everyone, in order), USING, WITH CHECK (null when
    /// the policy has none). Names compare byte by byte (`name` sorts in the C collation).
    static let catalog = """
        select quote_ident(c.relname), c.relrowsecurity, c.relforcerowsecurity,
               quote_ident(p.polname), p.polcmd::text, p.polpermissive,
               array(select name from (select case when r.oid = 0 then 'public' else quote_ident(pg_get_userbyid(r.oid)) end
                                       from unnest(p.polroles) as r (oid)) as roles (name)
                     order by name collate "C"),
               pg_get_expr(p.polqual, p.polrelid, true), pg_get_expr(p.polwithcheck, p.polrelid, true)
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        left join pg_policy p on p.polrelid = c.oid
        where n.nspname = $1 and c.relkind in ('r', 'p')
        order by c.relname, p.polname
        """
}
