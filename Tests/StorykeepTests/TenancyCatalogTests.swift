import Foundation
import Postgres
import StorykeepTestSupport
import Testing

/// The RLS catalog check over the migrated schema: every migration, now and later, is held to it.
@Suite struct TenancyCatalogTests {
    @Test func theMigratedSchemaPassesTheCatalogCheck() async throws {
        try await TestDatabase.migrated()
        let owner = try TestDatabase.ownerPool()
        let violations = try await owner.transaction { tx in
            try await RLSCatalogCheck.violations(
                on: tx, schemas: ["public"], appRole: TestDatabase.appRole, exemptTables: ["schema_migrations"],
                // The erasure (Migrations/0031_privacy_erasure.sql says why it must be one), and the
                // agency's figures, which answer counts alone (Migrations/0040_figures.sql).
                exemptFunctions: [
                    "privacy_erase_person(person uuid, confirm text)",
                    "agency_figures_entries(first_day date, last_day date, zone text)",
                    "agency_figures_shares(first_day date, last_day date, zone text)",
                    "agency_figures_safety(first_day date, last_day date, zone text)",
                ])
        }
        await owner.close()
        #expect(violations.isEmpty, "tenancy violations:\n\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func rolesAreWhatTheMigrationsAssume() async throws {
        try await TestDatabase.migrated()
        let app = try TestDatabase.appPool(size: 1)
        let roles = try await app.transaction { tx in
            try await tx.query(
                "select rolname, rolsuper, rolbypassrls, rolcanlogin from pg_roles where rolname = any($1) order by rolname",
                [TestDatabase.appRole, TestDatabase.ownerRole])
        }
        let current = try await app.transaction { try await $0.query("select current_user")[0].decode(String.self, at: 0) }
        await app.close()
        #expect(current == TestDatabase.appRole, "DATABASE_URL must connect as \(TestDatabase.appRole)")
        #expect(roles.count == 2)
        for role in roles {
            let name = try role.decode(String.self, at: 0)
            #expect(try role.decode(Bool.self, at: 1) == false, "\(name) must not be superuser")
            // Neither role bypasses row-level security: see Migrations/0001_tenancy.sql.
            #expect(try role.decode(Bool.self, at: 2) == false, "\(name) must not have BYPASSRLS")
            #expect(try role.decode(Bool.self, at: 3), "\(name) must be able to log in")
        }
    }

    @Test func theDirectoryIsReadOnlyForTheApp() async throws {
        try await TestDatabase.migrated()
        let app = try TestDatabase.appPool(size: 1)
        let owner = try TestDatabase.ownerPool(size: 1)
        let slug = "catalog-test-" + UUID().uuidString.prefix(8).lowercased()
        let tenant = try await owner.transaction { tx in
            try await tx.query(
                "insert into tenants (slug, display_name, hosts) values ($1, 'Catalog test', $2) returning tenant_id",
                slug, ["\(slug).example.org"])[0].decode(UUID.self, at: 0)
        }
        // Routing finds the tenant by slug or host before any tenant context exists.
        let bySlug = try await app.transaction { tx in
            try await tx.query("select tenant_id from tenants where slug = $1", slug).first?.decode(UUID.self, at: 0)
        }
        let byHost = try await app.transaction { tx in
            try await tx.query("select tenant_id from tenants where $1 = any(hosts)", "\(slug).example.org").first?.decode(UUID.self, at: 0)
        }
        #expect(bySlug == tenant && byHost == tenant)
        // And can change nothing, in or out of the tenant's context.
        for settings in [[:], ["storykeep.tenant_id": tenant.uuidString]] {
            let refused = await #expect(throws: PostgresError.self) {
                try await app.transaction(settings: settings) { try await $0.execute("update tenants set enabled = false where slug = $1", slug) }
            }
            #expect(refused?.sqlState == PostgresError.SQLState.insufficientPrivilege)
        }
        // The table's own rules hold for the owner as well.
        let badSlug = await #expect(throws: PostgresError.self) {
            try await owner.transaction { try await $0.execute("insert into tenants (slug, display_name) values ('Not A Slug', 'x')") }
        }
        #expect(badSlug?.constraintName == "tenants_slug_format")
        try await owner.transaction { try await $0.execute("delete from tenants where tenant_id = $1", tenant) }
        await app.close()
        await owner.close()
    }

    @Test func theCheckCatchesEveryKindOfStray() async throws {
        try await TenancyScratch.run(setup: """
            -- Fine: the pattern.
            create table $s.good (tenant_id uuid not null, id uuid not null, other_id uuid,
                                  primary key (tenant_id, id), unique (tenant_id, other_id));
            alter table $s.good enable row level security;
            alter table $s.good force row level security;
            create policy good_tenant on $s.good using (tenant_id = (select current_tenant_id()));
            grant select, insert, update, delete on $s.good to storykeep_app;
            create view $s.good_view with (security_invoker = true) as select * from $s.good;

            -- RLS enabled but not forced; and one without RLS at all.
            create table $s.unforced (tenant_id uuid not null, id uuid not null, primary key (tenant_id, id));
            alter table $s.unforced enable row level security;
            create table $s.plain (tenant_id uuid not null, id uuid not null, primary key (tenant_id, id));

            -- Primary key without the tenant, or not led by it; and no primary key at all.
            create table $s.by_id (id uuid primary key, tenant_id uuid not null);
            create table $s.id_first (tenant_id uuid not null, id uuid not null, primary key (id, tenant_id));
            create table $s.keyless (tenant_id uuid not null);

            -- Writes granted without policies for them; TRUNCATE granted.
            create table $s.reads_only (tenant_id uuid not null, id uuid not null, primary key (tenant_id, id));
            create policy reads_only_select on $s.reads_only for select using (tenant_id = (select current_tenant_id()));
            create policy reads_only_owner on $s.reads_only for update to storykeep_owner using (true);
            grant select, insert, update, delete, truncate on $s.reads_only to storykeep_app;

            -- A foreign key and a unique index without the tenant.
            create table $s.refs (tenant_id uuid not null, id uuid not null, good_id uuid, email text,
                                  primary key (tenant_id, id), foreign key (tenant_id, good_id) references $s.good (tenant_id, id),
                                  constraint refs_id_only foreign key (id) references $s.by_id (id),
                                  constraint refs_email unique (email));

            -- Views, a materialized view, a SECURITY DEFINER function.
            create view $s.owner_view as select * from $s.good;
            create materialized view $s.snapshot as select * from $s.good;
            create function $s.definer() returns int language sql security definer return 1;
            create function $s.invoker() returns int language sql return 1;
            """ + ["by_id", "id_first", "keyless", "reads_only", "refs"].map {
                "alter table $s.\($0) enable row level security; alter table $s.\($0) force row level security;\n"
            }.joined()
        ) { s in
            let found = try await s.violations().map(\.description)
            let schema = s.schema
            #expect(found == [
                "\(schema).by_id: primary key does not lead with tenant_id",
                "\(schema).definer(): SECURITY DEFINER function: it runs with its owner's rights",
                "\(schema).id_first: primary key does not lead with tenant_id",
                "\(schema).keyless: primary key does not lead with tenant_id",
                "\(schema).owner_view: view without security_invoker = true: it reads with its owner's rights",
                "\(schema).plain: row-level security is not enabled and forced",
                "\(schema).reads_only: storykeep_app has the TRUNCATE privilege",
                "\(schema).reads_only: storykeep_app may DELETE without a policy for DELETE",
                "\(schema).reads_only: storykeep_app may INSERT without a policy for INSERT",
                "\(schema).reads_only: storykeep_app may UPDATE without a policy for UPDATE",
                "\(schema).refs (refs_email): unique index does not include tenant_id",
                "\(schema).refs (refs_id_only): foreign key does not lead with tenant_id on both sides",
                "\(schema).snapshot: materialized view: its rows are computed with its owner's rights",
                "\(schema).unforced: row-level security is not enabled and forced",
            ])
        }
    }
}
