import Foundation
import StorykeepTestSupport
import Testing

/// `Schema/policies.sql` is what `storykeep schema policies` prints for the database `make test`
/// migrated: every table's row-level security as the catalog states it after all migrations.
@Suite struct PolicyFileTests {
    static let regenerate = ".build/debug/storykeep schema policies > Schema/policies.sql"

    @Test func schemaPoliciesSQLIsTheCatalogs() async throws {
        let listed = try await Storykeep.run("schema", "policies")
        #expect(listed.status == 0, "storykeep schema policies failed: \(listed.errors)")
        // What the command reads: each table's flags and policies, in SQL.
        #expect(listed.output.contains("alter table entries force row level security;"), "\(listed.output.prefix(500))")
        #expect(listed.output.contains("create policy entries_tenant on entries as permissive for all to public"))

        let file = try String(contentsOf: repositoryRoot.appendingPathComponent("Schema/policies.sql"), encoding: .utf8)
        let (listedLines, fileLines) = (listed.output.components(separatedBy: "\n"), file.components(separatedBy: "\n"))
        let line = zip(listedLines, fileLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(listedLines.count, fileLines.count)
        let current = listed.output == file  // (a Bool, so that a failure shows the lines below, not both files)
        #expect(
            current,
            """
            Schema/policies.sql differs from the catalog of the migrated test database, from its line \(line + 1):
              file:    \(line < fileLines.count ? fileLines[line] : "(ends)")
              catalog: \(line < listedLines.count ? listedLines[line] : "(ends)")
            Regenerate it (against a migrated database) with:
              \(Self.regenerate)
            """)
    }
}
