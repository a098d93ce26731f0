import Foundation
import Postgres
import StorykeepTestSupport
import Testing

@testable import Storykeep

/// Issue 16, item 6: every length limit is counted one way, in Unicode code points, with the same
/// numbers in Swift (``TextLimit``) and in the database's CHECK constraints.
@Suite struct TextLimitTests {
    /// An e with a combining acute accent: one character on screen, two code points.
    static let combined = "e\u{301}"

    @Test func lengthsAreCodePoints() {
        #expect(TextLimit.length(of: Self.combined) == 2)
        #expect(TextLimit.length(of: "🇬🇧") == 2)
        #expect(TextLimit.length(of: "plain") == 5)
        let name = String(repeating: Self.combined, count: 150)
        #expect(name.count == 150)
        #expect(!TextLimit.personDisplayName.admits(name))
        #expect(TextLimit.personDisplayName.admits(String(repeating: Self.combined, count: 100)))
        #expect(TextLimit.entryText.admits(""))
        #expect(!TextLimit.tagName.admits(""))
        #expect(TextLimit.personDisplayName.description == "1 to 200 characters")
        #expect(TextLimit.entryText.description == "at most 20000 characters")
    }

    /// Each `length(...)` CHECK on a text column is one of the limits, with its numbers, and each
    /// limit names a constraint that exists: a new limit on either side without the other fails.
    @Test func theLimitsAreTheDatabaseChecks() async throws {
        try await TestDatabase.migrated()
        let owner = try TestDatabase.ownerPool()
        let (checks, encoding, counted) = try await owner.transaction { tx in
            let checks = try await tx.query(
                #"""
                select c.conname, pg_get_constraintdef(c.oid)
                from pg_constraint c
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
                where c.contype = 'c' and c.connamespace = 'public'::regnamespace and a.atttypid = 'text'::regtype
                  and pg_get_constraintdef(c.oid) ~ '\mlength\('
                """#
            ).map { (try $0.decode(String.self, at: 0), try $0.decode(String.self, at: 1)) }
            let encoding = try await tx.query(
                "select pg_encoding_to_char(encoding) from pg_database where datname = current_database()")[0].decode(String.self, at: 0)
            let counted = try await tx.query("select length($1)", Self.combined)[0].decode(Int.self, at: 0)
            return (checks, encoding, counted)
        }
        await owner.close()
        // PostgreSQL counts code points only in a UTF-8 database.
        #expect(encoding == "UTF8")
        #expect(counted == TextLimit.length(of: Self.combined))

        let limits = Dictionary(uniqueKeysWithValues: TextLimit.all.map { ($0.constraint, $0) })
        #expect(Set(checks.map(\.0)) == Set(limits.keys))
        for (name, definition) in checks {
            guard let limit = limits[name] else { continue }
            let upper = try #require(definition.firstMatch(of: /length\(\w+\) <= (\d+)/).flatMap { Int($0.1) }, "\(definition)")
            #expect(upper == limit.range.upperBound, "\(name): \(definition)")
            if let lower = definition.firstMatch(of: /length\(\w+\) >= (\d+)/).flatMap({ Int($0.1) }) {
                #expect(lower == limit.range.lowerBound, "\(name): \(definition)")
            }
        }
    }

    /// No column has a length in its type (`varchar(n)`, `char(n)`): a value too long for one
    /// would be a 22001 error no field can be named for. Text lengths are CHECKs, held above.
    @Test func noColumnTypeHasALength() async throws {
        try await TestDatabase.migrated()
        let owner = try TestDatabase.ownerPool()
        let sized = try await owner.transaction { tx in
            try await tx.query(
                """
                select table_name || '.' || column_name from information_schema.columns
                where table_schema = 'public' and character_maximum_length is not null
                """
            ).map { try $0.decode(String.self, at: 0) }
        }
        await owner.close()
        #expect(sized == [])
    }

    /// What a tenant file gives people to use must fit where it goes: mood labels become an
    /// entry's mood, suggested tags a tag's name, prompts an entry's suggestion.
    @Test func aTenantFileIsHeldToTheLimitsOfWhereItsTextGoes() throws {
        func problem(_ yaml: String) -> String? {
            do {
                _ = try TenantFiles.decode(yaml, file: "tenants/sample.yaml")
                return nil
            } catch {
                return error.description
            }
        }
        let label = String(repeating: Self.combined, count: 26)
        #expect(problem(minimalTenantYAML.replacingOccurrences(of: "label: Okay", with: "label: \(label)"))?.contains("label") == true)
        #expect(problem(minimalTenantYAML.replacingOccurrences(of: "label: Okay", with: "label: \(label.dropLast(1))")) == nil)
        let tag = String(repeating: Self.combined, count: 50)
        #expect(problem(minimalTenantYAML + "\nsuggestedTags: [\"\(tag)\"]")?.contains("suggestedTags") == true)
        #expect(problem(minimalTenantYAML + "\nsuggestedTags: [\"\(tag.dropLast(1))\"]") == nil)
        let prompt = String(repeating: Self.combined, count: 251)
        #expect(problem(minimalTenantYAML + "\nprompts: [{ text: \"\(prompt)\" }]")?.contains("prompts") == true)
        #expect(problem(minimalTenantYAML + "\nprompts: [{ text: \"\(prompt.dropLast(1))\" }]") == nil)
    }
}
