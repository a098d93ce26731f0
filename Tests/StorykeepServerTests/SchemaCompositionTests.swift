import Foundation
import GraphQL
import Storykeep
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

@Suite("Schema composition from modules")
struct SchemaCompositionTests {
    /// A schema directory with the real accounts SDL and a notes module.
    func directory(notes sdl: String = "extend type Query { notes: [String!]! }") throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: repositoryRoot + "/Schema/accounts.graphql"), to: dir.appendingPathComponent("accounts.graphql"))
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: repositoryRoot + "/Schema/core.graphql"), to: dir.appendingPathComponent("core.graphql"))
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
        let withTags = try schemas.schema(for: try tenant(modules: "[tags, social]"))
        let without = try schemas.schema(for: try tenant(modules: "[social]"))
        #expect(withTags.modules == ["accounts", "notes"])
        #expect(without.modules == ["accounts"])
        #expect(withTags.schema.queryType?.fields["notes"] != nil)
        #expect(without.schema.queryType?.fields["notes"] == nil)
        #expect(withTags.ownTransactionFields == ["login", "activateAccount", "changePassword"])
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
}
