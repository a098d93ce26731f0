import Foundation
import StorykeepTestSupport
import Testing

@testable import storykeep

/// `storykeep person export`: a person's data export written to a file, with a progress bar.
@Suite struct PersonExportCommandTests {
    @Test func theCommandIsRegistered() throws {
        let export = try #require(
            try StorykeepCommand.parseAsRoot(["person", "export", "--tenant", "demo", "--person", "kid-one", "--output", "x.zip"])
                as? PersonCommand.Export)
        #expect(export.tenant == "demo" && export.person == "kid-one" && export.output == "x.zip")
    }

    @Test func itWritesTheZipOfAPersonByUsernameOrId() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        let created = try await Storykeep.run("user", "create", "--tenant", slug, "--role", "YOUNG_PERSON", "--username", "kid-one", "--json")
        #expect(created.status == 0, "\(created.errors)")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(slug).zip").path
        defer { try? FileManager.default.removeItem(atPath: output) }

        let result = try await Storykeep.run("person", "export", "--tenant", slug, "--person", "KID-ONE", "--output", output)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("wrote \(output) ("))
        #expect(result.errors.contains("export: [########################] 100%"))
        let zip = try #require(FileManager.default.contents(atPath: output))
        #expect(zip.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        let attributes = try FileManager.default.attributesOfItem(atPath: output)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let account = String(decoding: zip, as: UTF8.self)
        #expect(account.contains("\"username\": \"kid-one\""))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: Any])
        let id = try #require(json["personId"] as? String)
        let byID = try await Storykeep.run("person", "export", "--tenant", slug, "--person", id, "--output", output)
        #expect(byID.status == 0, "\(byID.errors)")

        let unknown = try await Storykeep.run("person", "export", "--tenant", slug, "--person", "nobody-here", "--output", output)
        #expect(unknown.status != 0 && unknown.errors.contains("no person nobody-here"))
    }
}
