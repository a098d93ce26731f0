import Foundation
import Logging
import Postgres
import GraphQL
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

/// A module of a test's own: `Schema/notes.graphql` extends the root types, switched on by a
/// tenant's `tags`.
private struct NotesModule: StorykeepModule {
    var name: String { "notes" }
    var switchedBy: TenantModule? { .tags }
    var extra: String?

    func register(_ module: inout ModuleRegistry) {
        module.query("notes", access: .authenticated) { _, _ in ["a note"] }
        if let extra { module.field(extra, .sync { _, _, _, _ in nil }) }
    }
}

/// A module whose field below the root takes an argument: `{ note { text(prefix: "…") } }`;
/// `admitting` lets NULs through in the arguments it names (`(argument, field)`).
private struct NoteModule: StorykeepModule {
    var name: String { "notes" }
    var switchedBy: TenantModule? { .tags }
    var admitting: [(argument: String, field: String)] = []

    func register(_ module: inout ModuleRegistry) {
        module.query("note", access: .anyone) { _, _ in GraphQLValue.object([:]) }
        module.field("Note.text", .sync { _, arguments, _, _ in (arguments["prefix"]?.stringValue ?? "") + "note" })
        for (argument, field) in admitting { module.admitNUL(inArgument: argument, of: field) }
    }
}

@Suite("Schema composition from modules")
struct SchemaCompositionTests {
    /// A schema directory with the real accounts SDL (its files: accounts, passkeys) and a notes module.
    func directory(notes sdl: String = "extend type Query { notes: [String!]! }") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["core"] + AccountsModule().sdl {
            try FileManager.default.copyItem(
                at: repositoryRoot.appendingPathComponent("Schema/\(name).graphql"), to: dir.appendingPathComponent("\(name).graphql"))
        }
        try sdl.write(to: dir.appendingPathComponent("notes.graphql"), atomically: true, encoding: .utf8)
        return dir
    }

    func tenant(modules: String) throws -> TenantFile {
        try TenantFiles.decode(
            """
            slug: compose
            displayName: Compose
            timeZone: Europe/London
            termsVersion: "1"
            modules: \(modules)
            moodIcons: [{ emoji: "🙂", label: Okay }]
            """, file: "compose")
    }

    @Test func aTenantGetsTheModulesItEnablesAndSchemasAreSharedPerModuleSet() throws {
        let schemas = TenantSchemas(directory: try directory(), modules: [AccountsModule(), NotesModule()])
        let withTags = try schemas.schema(for: try tenant(modules: "[tags, archive]"))
        let without = try schemas.schema(for: try tenant(modules: "[archive]"))
        #expect(withTags.modules == ["accounts", "notes"])
        #expect(without.modules == ["accounts"])
        #expect(withTags.schema.queryType?.fields["notes"] != nil)
        #expect(without.schema.queryType?.fields["notes"] == nil)
        #expect(withTags.ownTransactionFields == ["login", "activateAccount", "changePassword", "finishPasskeyLogin"])
        // The same set of modules is one schema, one document cache: composed once.
        #expect(try schemas.schema(for: try tenant(modules: "[tags]")).service === withTags.service)
        #expect(try schemas.schema(for: try tenant(modules: "[]")).service === without.service)
        try schemas.checkAllModules()
    }

    @Test func resolversAndSDLMustMatch() throws {
        // A resolver for a field the SDL lacks.
        let typo = TenantSchemas(directory: try directory(), modules: [AccountsModule(), NotesModule(extra: "Person.nickname")])
        #expect(throws: SchemaCompositionError.self) { try typo.checkAllModules() }
        // A root field without a resolver.
        let unresolved = TenantSchemas(
            directory: try directory(notes: "extend type Query { notes: [String!]! other: Int }"), modules: [AccountsModule(), NotesModule()])
        #expect(throws: SchemaCompositionError.self) { try unresolved.checkAllModules() }
        // SDL that does not build.
        let broken = TenantSchemas(directory: try directory(notes: "extend type Query { notes: [Nope] }"), modules: [AccountsModule(), NotesModule()])
        #expect(throws: SchemaCompositionError.self) { try broken.checkAllModules() }
    }

    /// Arguments below the root are checked as the root's are (``InputText``): a NUL is refused
    /// before the resolver runs, naming the argument; unless the module admits NULs there.
    @Test(arguments: [false, true]) func argumentsBelowTheRootAreCheckedToo(admitted: Bool) async throws {
        let schemas = TenantSchemas(
            directory: try directory(notes: "extend type Query { note: Note } type Note { text(prefix: String): String }"),
            modules: [AccountsModule(), NoteModule(admitting: admitted ? [("prefix", "Note.text")] : [])])
        let argon2 = BoundedWorkerPool(threadCount: 1, name: "composition-argon2")
        let graphQL = TenantGraphQL(
            schemas: schemas,
            services: DomainServices(
                // Never connected: anonymous requests take no connection.
                pool: PostgresPool(configuration: PostgresConfiguration(connectionString: "host=/nonexistent"), logger: Logger(label: "test")),
                hasher: try PasswordHasher(parameters: .floor, pool: argon2),
                sessions: SessionPolicy(maxLifetimeSeconds: 60, idleTimeoutSeconds: 60), logger: Logger(label: "test")))
        let tenant = Tenant(id: UUID(), enabled: true, file: try tenant(modules: "[tags]"))
        func run(_ prefix: String) async throws -> GraphQLValue {
            let request = GraphQLRequest(query: "query($p: String) { note { text(prefix: $p) } }", variables: ["p": .string(prefix)])
            let outcome = await graphQL.execute(request, tenant: tenant, credential: .none, links: TenantLinks(root: "/"))
            guard case .response(let response) = outcome else {
                Issue.record("not run: \(outcome)")
                return .null
            }
            return try GraphQLValue(json: response.jsonBytes())
        }
        #expect(try await run("a ")["data"]?["note"]?["text"] == .string("a note"))
        let composed = try schemas.schema(for: tenant.file)
        #expect(composed.argumentsAdmittingNUL == (admitted ? ["Note.text(prefix:)"] : []))
        let withNUL = try await run("a\u{0}b")
        if admitted {
            #expect(withNUL["data"]?["note"]?["text"] == .string("a\u{0}bnote"), "\(withNUL.json)")
        } else {
            #expect(withNUL.errorCode == "BAD_USER_INPUT", "\(withNUL.json)")
            #expect(withNUL.errorExtensions?["field"] == .string("prefix"), "\(withNUL.json)")
            #expect(withNUL["data"]?["note"]?["text"] == .null)
        }
    }

    /// Admitting NULs in an argument the schema lacks, or one that is no String, fails the
    /// composition: a misspelt name would admit nothing, silently.
    @Test func admittingNULsNamesAStringArgument() throws {
        let sdl = "extend type Query { note: Note } type Note { text(prefix: String, times: Int): String }"
        for (argument, field) in [("prefx", "Note.text"), ("times", "Note.text"), ("prefix", "Note.texts"), ("prefix", "Nope.text")] {
            let schemas = TenantSchemas(directory: try directory(notes: sdl), modules: [AccountsModule(), NoteModule(admitting: [(argument, field)])])
            #expect(throws: SchemaCompositionError.self, "\(field)(\(argument):)") { try schemas.checkAllModules() }
        }
        let fine = TenantSchemas(directory: try directory(notes: sdl), modules: [AccountsModule(), NoteModule(admitting: [("prefix", "Note.text")])])
        try fine.checkAllModules()
    }
}
