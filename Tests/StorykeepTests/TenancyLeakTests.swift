import Foundation
import Postgres
import Testing

/// The known ways row-level security leaks between tenants: each shown leaking with the wrong
/// design, shown closed with ours, and — where the catalog can tell — caught by the catalog check.
@Suite struct TenancyLeakTests {
    /// RLS on `$s.t`, forced, with the tenant policy of the pattern.
    static func guarded(_ table: String) -> String {
        """
        alter table $s.\(table) enable row level security;
        alter table $s.\(table) force row level security;
        create policy \(table)_tenant on $s.\(table)
            using (tenant_id = (select current_tenant_id()))
            with check (tenant_id = (select current_tenant_id()));
        grant select, insert, update, delete on $s.\(table) to storykeep_app;
        """
    }

    @Test func aForeignKeyOnTheIdAloneAcceptsAnotherTenantsRow() async throws {
        try await TenancyScratch.run(setup: """
            create table $s.people (tenant_id uuid not null, id uuid not null, primary key (tenant_id, id),
                                    constraint people_id_unique unique (id));
            create table $s.leaky_entries (tenant_id uuid not null, id uuid not null default gen_random_uuid(),
                                           author_id uuid not null references $s.people (id), primary key (tenant_id, id));
            create table $s.entries (tenant_id uuid not null, id uuid not null default gen_random_uuid(),
                                     author_id uuid not null, primary key (tenant_id, id),
                                     foreign key (tenant_id, author_id) references $s.people (tenant_id, id));
            """ + Self.guarded("people") + Self.guarded("leaky_entries") + Self.guarded("entries")
        ) { s in
            let personOfA = UUID()
            try await s.asApp(s.tenantA) { try await $0.execute(s.sql("insert into $s.people values ($1, $2)"), s.tenantA, personOfA) }
            let insert = "insert into $s.%@ (tenant_id, author_id) values ($1, $2) returning id"

            // Tenant B cannot see A's person, yet the single-column key accepts it — and tells B
            // that the id exists, since an unknown id is refused.
            #expect(await s.attempt(s.tenantB, "select * from $s.people where id = $1", personOfA) == .rows(0))
            let leaky = String(format: insert, "leaky_entries")
            #expect(await s.attempt(s.tenantB, leaky, s.tenantB, personOfA) == .rows(1))
            #expect(await s.attempt(s.tenantB, leaky, s.tenantB, UUID()) == .failed(PostgresError.SQLState.foreignKeyViolation))

            // The composite key refuses A's person exactly as it refuses an unknown one.
            let safe = String(format: insert, "entries")
            #expect(await s.attempt(s.tenantB, safe, s.tenantB, personOfA) == .failed(PostgresError.SQLState.foreignKeyViolation))
            #expect(await s.attempt(s.tenantB, safe, s.tenantB, UUID()) == .failed(PostgresError.SQLState.foreignKeyViolation))
            #expect(await s.attempt(s.tenantA, safe, s.tenantA, personOfA) == .rows(1))

            // The catalog check names both the key and the unique index that enabled it.
            let found = try await s.violations().map(\.description)
            #expect(found == [
                "\(s.schema).leaky_entries (leaky_entries_author_id_fkey): foreign key does not lead with tenant_id on both sides",
                "\(s.schema).people (people_id_unique): unique index does not include tenant_id",
            ])
        }
    }

    @Test func aUniqueConstraintWithoutTheTenantRevealsAnotherTenantsValue() async throws {
        try await TenancyScratch.run(setup: """
            create table $s.leaky_accounts (tenant_id uuid not null, id uuid not null default gen_random_uuid(),
                                            email text not null constraint leaky_email unique, primary key (tenant_id, id));
            create table $s.accounts (tenant_id uuid not null, id uuid not null default gen_random_uuid(),
                                      email text not null, primary key (tenant_id, id),
                                      constraint accounts_email unique (tenant_id, email));
            """ + Self.guarded("leaky_accounts") + Self.guarded("accounts")
        ) { s in
            for table in ["leaky_accounts", "accounts"] {
                try await s.asApp(s.tenantA) {
                    try await $0.execute(s.sql("insert into $s.\(table) (tenant_id, email) values ($1, $2)"), s.tenantA, "kim@example.org")
                }
            }
            // B registering the same address learns that A has it...
            #expect(await s.attempt(
                s.tenantB, "insert into $s.leaky_accounts (tenant_id, email) values ($1, $2)", s.tenantB, "kim@example.org"
            ) == .failed(PostgresError.SQLState.uniqueViolation))
            // ...unless uniqueness is per tenant: then B simply registers it.
            #expect(await s.attempt(
                s.tenantB, "insert into $s.accounts (tenant_id, email) values ($1, $2) returning id", s.tenantB, "kim@example.org"
            ) == .rows(1))
            // Within a tenant the constraint still holds.
            #expect(await s.attempt(
                s.tenantA, "insert into $s.accounts (tenant_id, email) values ($1, $2)", s.tenantA, "kim@example.org"
            ) == .failed(PostgresError.SQLState.uniqueViolation))

            let found = try await s.violations().map(\.description)
            #expect(found == ["\(s.schema).leaky_accounts (leaky_email): unique index does not include tenant_id"])
        }
    }

    @Test func onConflictDoNothingAnswersTheSameForAnotherTenantsKey() async throws {
        try await TenancyScratch.run(setup: """
            create table $s.leaky_items (id uuid primary key, tenant_id uuid not null, label text);
            create table $s.items (tenant_id uuid not null, id uuid not null, label text, primary key (tenant_id, id));
            """ + Self.guarded("leaky_items") + Self.guarded("items")
        ) { s in
            let itemOfA = UUID()
            for table in ["leaky_items", "items"] {
                try await s.asApp(s.tenantA) {
                    try await $0.execute(s.sql("insert into $s.\(table) (tenant_id, id, label) values ($1, $2, 'a')"), s.tenantA, itemOfA)
                }
            }
            // With a key of its own, B's "insert if absent" returns nothing for A's id and a row for
            // a fresh one: B learns which ids A holds.
            let leaky = "insert into $s.leaky_items (tenant_id, id, label) values ($1, $2, 'b') on conflict do nothing returning id"
            #expect(await s.attempt(s.tenantB, leaky, s.tenantB, itemOfA) == .rows(0))
            #expect(await s.attempt(s.tenantB, leaky, s.tenantB, UUID()) == .rows(1))

            // With the tenant in the key, A's id does not collide with anything of B's.
            let safe = "insert into $s.items (tenant_id, id, label) values ($1, $2, 'b') on conflict (tenant_id, id) do nothing returning id"
            #expect(await s.attempt(s.tenantB, safe, s.tenantB, itemOfA) == .rows(1))
            #expect(await s.attempt(s.tenantB, safe, s.tenantB, UUID()) == .rows(1))
            // Aiming at A's rows answers the same whether the id exists there or not.
            #expect(await s.attempt(s.tenantB, safe, s.tenantA, itemOfA) == .failed(PostgresError.SQLState.insufficientPrivilege))
            #expect(await s.attempt(s.tenantB, safe, s.tenantA, UUID()) == .failed(PostgresError.SQLState.insufficientPrivilege))
            let update = "update $s.items set label = 'b' where id = $1 returning id"
            #expect(await s.attempt(s.tenantB, update, itemOfA) == .rows(0))
            #expect(await s.attempt(s.tenantB, update, UUID()) == .rows(0))

            let found = try await s.violations().map(\.description)
            #expect(found == ["\(s.schema).leaky_items: primary key does not lead with tenant_id"])
        }
    }

    @Test func viewsAndSecurityDefinerFunctionsReadWithTheirOwnersRights() async throws {
        try await TenancyScratch.run(setup: """
            create table $s.notes (tenant_id uuid not null, id uuid not null default gen_random_uuid(), body text,
                                   primary key (tenant_id, id));
            """ + Self.guarded("notes") + """
            create view $s.owner_view as select * from $s.notes;
            create view $s.invoker_view with (security_invoker = true) as select * from $s.notes;
            create function $s.definer_notes() returns setof $s.notes language sql security definer
                as 'select * from $s.notes';
            grant select on $s.owner_view, $s.invoker_view to storykeep_app;
            """
        ) { s in
            for tenant in [s.tenantA, s.tenantB] {
                try await s.asApp(tenant) { try await $0.execute(s.sql("insert into $s.notes (tenant_id, body) values ($1, 'n')"), tenant) }
            }
            // With RLS forced and the owner without BYPASSRLS, even the owner's view and function
            // are filtered: a second line of defence.
            for source in ["$s.owner_view", "$s.invoker_view", "$s.definer_notes()"] {
                #expect(await s.attempt(s.tenantB, "select * from \(source)") == .rows(1), "\(source)")
            }
            // Without FORCE (the owner then skips its own table's policies), the view without
            // security_invoker and the SECURITY DEFINER function hand B every tenant's notes.
            try await s.owner.transaction { try await $0.executeScript(s.sql("alter table $s.notes no force row level security")) }
            #expect(await s.attempt(s.tenantB, "select * from $s.owner_view") == .rows(2))
            #expect(await s.attempt(s.tenantB, "select * from $s.definer_notes()") == .rows(2))
            #expect(await s.attempt(s.tenantB, "select * from $s.invoker_view") == .rows(1))
            #expect(await s.attempt(s.tenantB, "select * from $s.notes") == .rows(1))

            // The catalog check refuses all three.
            let found = try await s.violations().map(\.description)
            #expect(found == [
                "\(s.schema).definer_notes(): SECURITY DEFINER function: it runs with its owner's rights",
                "\(s.schema).notes: row-level security is not enabled and forced",
                "\(s.schema).owner_view: view without security_invoker = true: it reads with its owner's rights",
            ])
        }
    }

    @Test func setLocalCannotTakeParametersSoTheContextUsesSetConfig() async throws {
        try await TenancyScratch.run(appPoolSize: 1, setup: """
            create table $s.notes (tenant_id uuid not null, id uuid not null default gen_random_uuid(), primary key (tenant_id, id));
            """ + Self.guarded("notes")
        ) { s in
            for tenant in [s.tenantA, s.tenantB] {
                try await s.asApp(tenant) { try await $0.execute(s.sql("insert into $s.notes (tenant_id) values ($1)"), tenant) }
            }
            // SET LOCAL is a utility statement: no placeholders. The only way to use it with a
            // value would be to splice the value into SQL text.
            #expect(await s.attempt(nil, "set local storykeep.tenant_id = $1", s.tenantA.uuidString)
                == .failed(PostgresError.SQLState.syntaxError))
            // set_config takes the value as a bound parameter.
            let seen = try await s.app.transaction { tx in
                _ = try await tx.query("select set_config('storykeep.tenant_id', $1, true)", s.tenantA.uuidString)
                return try await tx.query("select current_tenant_id()")[0].decode(UUID.self, at: 0)
            }
            #expect(seen == s.tenantA)

            // The classic pooled-connection leak: a session-level setting (plain SET, or
            // set_config(..., false)) outlives its transaction, and the next request on that
            // connection — which set no tenant — reads tenant A's rows.
            try await s.app.transaction { _ = try await $0.query("select set_config('storykeep.tenant_id', $1, false)", s.tenantA.uuidString) }
            #expect(await s.attempt(nil, "select * from $s.notes") == .rows(1))
            try await s.app.transaction { _ = try await $0.query("reset storykeep.tenant_id") }
            // transaction(settings:) is transaction-local: the next request sees nothing.
            #expect(await s.attempt(s.tenantA, "select * from $s.notes") == .rows(1))
            #expect(await s.attempt(nil, "select * from $s.notes") == .rows(0))
        }
    }

    @Test func aTenantSettingNeverSetMatchesNothing() async throws {
        try await TenancyScratch.run(appPoolSize: 1, setup: """
            create table $s.notes (tenant_id uuid not null, id uuid not null default gen_random_uuid(), primary key (tenant_id, id));
            """ + Self.guarded("notes") + """
            -- The naive policy of the issue text, without our NULL handling.
            create table $s.naive (tenant_id uuid not null, id uuid not null default gen_random_uuid(), primary key (tenant_id, id));
            alter table $s.naive enable row level security;
            alter table $s.naive force row level security;
            create policy naive_tenant on $s.naive using (tenant_id = (select current_setting('storykeep.tenant_id')::uuid));
            grant select on $s.naive to storykeep_app;
            """
        ) { s in
            // Rows written by the owner, which is held to the same policy, so that the app's one
            // connection stays fresh.
            for tenant in [s.tenantA, s.tenantB] {
                try await s.asOwner(tenant) { try await $0.execute(s.sql("insert into $s.notes (tenant_id) values ($1)"), tenant) }
            }
            // A fresh connection: the setting was never set in this session.
            let never = try await s.app.transaction { tx in
                try await tx.query("select current_setting('storykeep.tenant_id', true)")[0].decode(String?.self, at: 0)
            }
            #expect(never == nil)
            #expect(await s.attempt(nil, "select * from $s.notes") == .rows(0))
            #expect(await s.attempt(nil, "select * from $s.naive") == .failed("42704"), "never set: unrecognized parameter")
            #expect(await s.attempt(nil, "insert into $s.notes (tenant_id) values ($1)", s.tenantA)
                == .failed(PostgresError.SQLState.insufficientPrivilege))

            // After a request with a tenant, the same connection reads the setting as ''.
            #expect(await s.attempt(s.tenantA, "select * from $s.notes") == .rows(1))
            let empty = try await s.app.transaction { tx in
                try await tx.query("select current_setting('storykeep.tenant_id', true)")[0].decode(String?.self, at: 0)
            }
            #expect(empty == "")
            // Ours still matches nothing, without an error; the naive cast fails on ''.
            #expect(await s.attempt(nil, "select * from $s.notes") == .rows(0))
            #expect(await s.attempt(nil, "select * from $s.notes where tenant_id = $1", s.tenantB) == .rows(0))
            #expect(await s.attempt(nil, "update $s.notes set id = id returning id") == .rows(0))
            #expect(await s.attempt(nil, "delete from $s.notes returning id") == .rows(0))
            #expect(await s.attempt(nil, "select * from $s.naive") == .failed(PostgresError.SQLState.invalidTextRepresentation))
            // A value that is not a tenant id is a bug, and raises.
            let garbage = await #expect(throws: PostgresError.self) {
                try await s.app.transaction(settings: ["storykeep.tenant_id": "not-a-uuid"]) {
                    try await $0.query(s.sql("select * from $s.notes"))
                }
            }
            #expect(garbage?.sqlState == PostgresError.SQLState.invalidTextRepresentation)
        }
    }
}
