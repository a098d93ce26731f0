import Foundation
import StorykeepTestSupport
import Testing

@testable import storykeep

@Suite struct CommandParsingTests {
    @Test func theCommandsAreRegistered() throws {
        #expect(try StorykeepCommand.parseAsRoot(["serve"]) is ServeCommand)
        #expect(try StorykeepCommand.parseAsRoot(["migrate"]) is MigrateCommand)
        #expect(try StorykeepCommand.parseAsRoot(["tenant", "list"]) is TenantCommand.List)
        let apply = try #require(try StorykeepCommand.parseAsRoot(["tenant", "apply", "elsewhere/"]) as? TenantCommand.Apply)
        #expect(apply.directory == "elsewhere/")
        #expect(!apply.check)
        let disable = try #require(try StorykeepCommand.parseAsRoot(["tenant", "disable", "demo"]) as? TenantCommand.Disable)
        #expect(disable.slug == "demo")
    }

    @Test func disableNeedsASlug() {
        #expect(throws: (any Error).self) { try StorykeepCommand.parseAsRoot(["tenant", "disable"]) }
    }
}

/// Runs the built `storykeep` binary, as an operator would, from the checkout.
struct Storykeep {
    struct Result {
        var status: Int32
        var output: String
        var errors: String
    }

    static var binary: URL {
        get throws {
            let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("storykeep")
            let candidates = [beside, repositoryRoot.appendingPathComponent(".build/debug/storykeep")]
            return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }, "build storykeep first")
        }
    }

    static func run(_ arguments: String...) throws -> Result {
        try run(arguments)
    }

    /// Runs the binary with `arguments`; `input`, when given, is its standard input.
    static func run(_ arguments: [String], input: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = try binary
        process.arguments = arguments
        process.currentDirectoryURL = repositoryRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self), errors: String(decoding: err, as: UTF8.self))
    }
}

@Suite struct TenantCommandTests {
    /// A directory with one tenant file of a fresh slug; returns it and the slug.
    func tenantDirectory(extra: String = "") throws -> (String, String) {
        let slug = TestTenants.uniqueSlug("c")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tenants-\(slug)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let yaml = """
            slug: \(slug)
            displayName: Command Test Agency
            timeZone: Europe/London
            termsVersion: "1"
            modules: [tags]
            moodIcons: [{ emoji: "🙂", label: Okay }]
            \(extra)
            """
        try yaml.write(to: dir.appendingPathComponent("\(slug).yaml"), atomically: true, encoding: .utf8)
        return (dir.path, slug)
    }

    @Test func checkReadsTheCheckoutsTenantsWithoutADatabase() throws {
        let result = try Storykeep.run("tenant", "apply", "--check", "tenants")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("valid     demo"))
    }

    @Test func applyReportsCreatedThenUnchangedAndListShowsTheTenant() throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try tenantDirectory()
        let first = try Storykeep.run("tenant", "apply", dir)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output == "created   \(slug)\n")
        let second = try Storykeep.run("tenant", "apply", dir)
        #expect(second.output == "unchanged \(slug)\n")

        let list = try Storykeep.run("tenant", "list")
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("\(slug)  enabled   Command Test Agency"))

        #expect(try Storykeep.run("tenant", "disable", slug).status == 0)
        #expect(try Storykeep.run("tenant", "list").output.contains("\(slug)  disabled  Command Test Agency"))
        let missing = try Storykeep.run("tenant", "disable", "no-such-\(slug)")
        #expect(missing.status != 0)
        #expect(missing.errors.contains("no tenant has the slug"))
    }

    @Test func aMalformedFileIsReportedAndNothingIsApplied() throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try tenantDirectory(extra: "archive:\n  retentionDays: thirty")
        let result = try Storykeep.run("tenant", "apply", dir)
        #expect(result.status != 0)
        #expect(result.errors.contains("\(dir)/\(slug).yaml: archive.retentionDays: expected a whole number"))
        #expect(!(try Storykeep.run("tenant", "list").output.contains(slug)))
    }

    @Test func migrateAgainChangesNothing() throws {
        try TestDatabase.requireEnvironment()
        let result = try Storykeep.run("migrate")
        #expect(result.status == 0, "\(result.errors)")
    }
}

@Suite struct UserAndSchemaCommandTests {
    @Test func userCreatePrintsOneJSONObjectWithTheCode() throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try Storykeep.run("tenant", "apply", dir).status == 0)
        let created = try Storykeep.run(
            "user", "create", "--tenant", slug, "--role", "AGENCY_ADMIN", "--email", "first.admin@example.org", "--json")
        #expect(created.status == 0, "\(created.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["personId", "activationCode"])
        #expect(UUID(uuidString: object["personId"] as? String ?? "") != nil)
        #expect((object["activationCode"] as? String)?.wholeMatch(of: /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/) != nil)
        // The same email again is refused, naming the option.
        let again = try Storykeep.run("user", "create", "--tenant", slug, "--role", "CARER", "--email", "FIRST.ADMIN@example.org")
        #expect(again.status != 0)
        #expect(again.errors.contains("--email: Someone in this agency already has this email."))
        let plain = try Storykeep.run("user", "create", "--tenant", slug, "--role", "YOUNG_PERSON", "--username", "kid-one")
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(plain.output.contains("Activation code: "))
        #expect(try Storykeep.run("user", "create", "--tenant", slug, "--role", "KING", "--email", "a@b").status != 0)
    }

    @Test func schemaPrintComposesTheTenantsModules() throws {
        let result = try Storykeep.run("schema", "print", "--tenant", "demo")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("type Query {"))
        #expect(result.output.contains("login(username: String!, password: String!): LoginPayload!"))
    }
}
