import Foundation
import HTTPTestSupport
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

    @Test func versionIsPrinted() async throws {
        let result = try await Storykeep.run("--version")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == StorykeepCommand.version + "\n")
        #expect(result.output.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil)
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
        get throws { try ServeProcess.binary }
    }

    static func run(_ arguments: String...) async throws -> Result {
        try await run(arguments)
    }

    /// Runs the binary with `arguments`; `input`, when given, is its standard input. The process
    /// is waited for on a thread of its own (``onOwnThread(_:)``), its standard error read on
    /// another, so that neither pipe can fill while the other is read.
    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) async throws -> Result {
        let binary = try binary
        return try await onOwnThread {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
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
            let err = PipeReader(errors)
            let out = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                errors: String(decoding: err.data, as: UTF8.self))
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {  // `read` is written once, before `done` is signalled
    private var read = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        Thread.detachNewThread { [self] in
            read = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything the pipe carried, once its writer has closed it.
    var data: Data {
        done.wait()
        return read
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

    @Test func checkReadsTheCheckoutsTenantsWithoutADatabase() async throws {
        let result = try await Storykeep.run("tenant", "apply", "--check", "tenants")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("valid     demo"))
    }

    @Test func applyReportsCreatedThenUnchangedAndListShowsTheTenant() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try tenantDirectory()
        let first = try await Storykeep.run("tenant", "apply", dir)
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output == "created   \(slug)\n")
        let second = try await Storykeep.run("tenant", "apply", dir)
        #expect(second.output == "unchanged \(slug)\n")

        let list = try await Storykeep.run("tenant", "list")
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("\(slug)  enabled   Command Test Agency"))

        #expect(try await Storykeep.run("tenant", "disable", slug).status == 0)
        #expect(try await Storykeep.run("tenant", "list").output.contains("\(slug)  disabled  Command Test Agency"))
        let missing = try await Storykeep.run("tenant", "disable", "no-such-\(slug)")
        #expect(missing.status != 0)
        #expect(missing.errors.contains("no tenant has the slug"))
    }

    @Test func aMalformedFileIsReportedAndNothingIsApplied() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try tenantDirectory(extra: "archive:\n  retentionDays: thirty")
        let result = try await Storykeep.run("tenant", "apply", dir)
        #expect(result.status != 0)
        #expect(result.errors.contains("\(dir)/\(slug).yaml: archive.retentionDays: expected a whole number"))
        #expect(!(try await Storykeep.run("tenant", "list").output.contains(slug)))
    }

    @Test func checkListsEveryProblemOfEveryFile() async throws {
        let (dir, slug) = try tenantDirectory(extra: "archive:\n  retentionDays: thirty\nlockout: { freeAttempts: many }\ncolour: blue")
        try "slug: other\n".write(toFile: dir + "/second.yaml", atomically: true, encoding: .utf8)
        let result = try await Storykeep.run("tenant", "apply", "--check", dir)
        #expect(result.status != 0)
        for problem in [
            "\(dir)/\(slug).yaml: colour: unknown key", "\(dir)/\(slug).yaml: lockout.freeAttempts: expected a whole number",
            "\(dir)/\(slug).yaml: archive.retentionDays: expected a whole number", "\(dir)/second.yaml: displayName: expected a value",
            "\(dir)/second.yaml: timeZone: expected a value", "\(dir)/second.yaml: modules: expected a value",
        ] {
            #expect(result.errors.contains(problem), "\(problem) in \(result.errors)")
        }
    }

    @Test func anUnknownModuleIsRefusedByName() async throws {
        let (dir, slug) = try tenantDirectory(extra: "")
        let file = dir + "/\(slug).yaml"
        let yaml = try String(contentsOfFile: file, encoding: .utf8).replacingOccurrences(of: "modules: [tags]", with: "modules: [tags, forum]")
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["tenant", "apply", "--check", dir], ["tenant", "apply", dir]] {
            let result = try await Storykeep.run(arguments)
            #expect(result.status != 0)
            #expect(result.errors.contains("\(file): modules[1]: expected one of: "), "\(result.errors)")
            #expect(result.errors.contains("found \"forum\""), "\(result.errors)")
        }
    }

    @Test func migrateAgainChangesNothing() async throws {
        try TestDatabase.requireEnvironment()
        let result = try await Storykeep.run("migrate")
        #expect(result.status == 0, "\(result.errors)")
    }
}

@Suite struct UserAndSchemaCommandTests {
    @Test func userCreatePrintsOneJSONObjectWithTheCode() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        let created = try await Storykeep.run(
            "user", "create", "--tenant", slug, "--role", "AGENCY_ADMIN", "--email", "first.admin@example.org", "--json")
        #expect(created.status == 0, "\(created.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["personId", "activationCode"])
        #expect(UUID(uuidString: object["personId"] as? String ?? "") != nil)
        #expect((object["activationCode"] as? String)?.wholeMatch(of: /[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/) != nil)
        // The same email again is refused, naming the option.
        let again = try await Storykeep.run("user", "create", "--tenant", slug, "--role", "CARER", "--email", "FIRST.ADMIN@example.org")
        #expect(again.status != 0)
        #expect(again.errors.contains("--email: Someone in this agency already has this email."))
        let plain = try await Storykeep.run("user", "create", "--tenant", slug, "--role", "YOUNG_PERSON", "--username", "kid-one")
        #expect(plain.status == 0, "\(plain.errors)")
        #expect(plain.output.contains("Activation code: "))
        #expect(try await Storykeep.run("user", "create", "--tenant", slug, "--role", "KING", "--email", "a@b").status != 0)
    }

    @Test func schemaPrintReadsATenantWithoutAFileFromTheDatabase() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        // Run from the checkout, whose tenants/ has no file of this slug.
        let result = try await Storykeep.run("schema", "print", "--tenant", slug)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("createTag("))
        let missing = try await Storykeep.run("schema", "print", "--tenant", "no-such-\(slug)")
        #expect(missing.status != 0)
        #expect(missing.errors.contains("no tenant has the slug no-such-\(slug)"))
    }

    /// `documents register` checks every document against the tenant's schema and registers all
    /// or nothing, listing every problem.
    @Test func documentsRegisterChecksEveryDocumentThenRegistersThem() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        let file = URL(fileURLWithPath: dir).appendingPathComponent("operations.json").path
        func write(_ object: Any) throws {
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: file))
        }
        try write(["a": "query A { me { id } }", "b": "query B { me { nope } }", "c": "query C {"])
        let refused = try await Storykeep.run("documents", "register", "--tenant", slug, file)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("nothing registered; 2 problem(s)"), "\(refused.errors)")
        #expect(refused.errors.contains("b (1:16): Cannot query field \"nope\" on type \"Person\"."), "\(refused.errors)")
        #expect(refused.errors.contains("c (1:10): Syntax Error"), "\(refused.errors)")

        try write(["a": "query A { me { id } }", "b": "query B { me { displayName } }"])
        let registered = try await Storykeep.run("documents", "register", "--tenant", slug, file)
        #expect(registered.status == 0, "\(registered.errors)")
        #expect(registered.output.contains("registered 2 document(s) for \(slug); it has 2"))
        // Apollo's manifest, replacing what was there.
        try write([
            "format": "apollo-persisted-query-manifest", "version": 1,
            "operations": [["id": "x", "name": "X", "type": "query", "body": "query X { me { id } }"]],
        ])
        let replaced = try await Storykeep.run("documents", "register", "--tenant", slug, "--replace", file)
        #expect(replaced.output.contains("registered 1 document(s) for \(slug); it has 1"), "\(replaced.errors)")
        #expect(try await Storykeep.run("documents", "register", "--tenant", "no-such-\(slug)", file).status != 0)
    }

    @Test func serveNamesTheHostAndPortAlreadyInUse() async throws {
        try TestDatabase.requireEnvironment()
        let listener = try TakenPort()
        defer { listener.close() }
        let result = try await Storykeep.run(
            ["serve"], environment: ["STORYKEEP_HTTP_HOST": "127.0.0.1", "STORYKEEP_HTTP_PORT": "\(listener.port)"])
        #expect(result.status != 0)
        #expect(result.errors.contains("127.0.0.1 port \(listener.port) is already in use"), "\(result.errors)")
    }

    @Test func schemaPrintComposesTheTenantsModules() async throws {
        let result = try await Storykeep.run("schema", "print", "--tenant", "demo")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("type Query {"))
        #expect(result.output.contains("login(username: String!, password: String!): LoginPayload!"))
    }

    /// The introspection JSON is the schema the SDL is: graphql-core builds a client schema from
    /// the one and prints what it builds from the other, identically.
    @Test func schemaPrintsIntrospectionJSONThatCodeGeneratorsRead() async throws {
        let sdl = try await Storykeep.run("schema", "print", "--tenant", "demo")
        let json = try await Storykeep.run("schema", "print", "--tenant", "demo", "--introspection-json")
        #expect(json.status == 0, "\(json.errors)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("introspection-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try sdl.output.write(to: folder.appendingPathComponent("schema.graphql"), atomically: true, encoding: .utf8)
        try json.output.write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
        let compare = """
            import json, sys
            from graphql import build_client_schema, build_schema, print_schema
            client = build_client_schema(json.load(open(sys.argv[1] + "/schema.json")))
            built = build_schema(open(sys.argv[1] + "/schema.graphql").read())
            assert "Entry" in client.type_map, "no Entry"
            sys.exit(0 if print_schema(client) == print_schema(built) else 1)
            """
        let (status, output) = try await runProcess(["python3", "-c", compare, folder.path])
        #expect(status == 0, "\(output)")
    }
}

/// A TCP port on 127.0.0.1 that this process listens on, so that another cannot.
struct TakenPort {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 1) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        try #require(bound, "could not listen on 127.0.0.1")
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
