import Foundation
import GraphQL
import Logging
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

@testable import storykeep

/// `storykeep user create --password-stdin --if-absent`: how `make run` provisions its demo people
/// (scripts/run.sh) and `make bench` its young people, run as those scripts run it.
@Suite struct UserProvisionCommandTests {
    /// Logs in to `slug` through the tenant GraphQL engine the server runs (real Argon2): the
    /// response's data, or its first error's message.
    func login(_ slug: String, _ username: String, _ password: String) async throws -> (token: String?, error: String?) {
        let config = try await StorykeepConfig.load(directory: repositoryRoot.path)
        let logger = Logger(label: "test")
        let pool = PostgresPool(
            configuration: PostgresConfiguration(
                connectionString: try config.database.requireURL(), poolSize: 2, acquireTimeout: config.database.acquireTimeout),
            logger: logger)
        let engine = try TenantGraphQL(config: config, pool: pool, logger: logger, root: repositoryRoot.path)
        let tenant = try #require(try await TenantStore(pool: pool).all().first { $0.slug == slug })
        let request = GraphQLRequest(
            query: "mutation($u: String!, $p: String!) { login(username: $u, password: $p) { token person { role } } }",
            variables: ["u": .string(username), "p": .string(password)])
        let outcome = await engine.execute(request, tenant: tenant, credential: .none, links: TenantLinks(root: "/t/\(slug)/"))
        await pool.close()
        guard case .response(let response) = outcome else { throw CancellationError() }
        return (response.data?["login"]?["token"]?.stringValue, response.errors.first?.message)
    }

    @Test func aPasswordFromStandardInputLogsInAtOnceAndIfAbsentKeepsThePerson() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        let create = ["user", "create", "--tenant", slug, "--role", "AGENCY_ADMIN", "--email", "Demo.Admin@example.org",
                      "--password-stdin", "--if-absent"]

        let first = try await Storykeep.run(create, input: "demo admin password\n")
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output.hasPrefix("Created AGENCY_ADMIN Demo.Admin (Demo.Admin@example.org) in \(slug), id "), "\(first.output)")
        #expect(first.output.contains("with the password given"))
        #expect(!first.output.contains("Activation code"))

        // Again, with another password and the email in other case: nothing changes, and it succeeds.
        let again = try await Storykeep.run(
            ["user", "create", "--tenant", slug, "--role", "AGENCY_ADMIN", "--email", "demo.admin@EXAMPLE.org", "--password-stdin",
             "--if-absent", "--json"], input: "another password here\n")
        #expect(again.status == 0, "\(again.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(again.output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["personId", "created"])
        #expect(object["created"] as? Bool == false)
        #expect(first.output.contains(object["personId"] as? String ?? "?"))
        let text = try await Storykeep.run(create, input: "demo admin password\n")
        #expect(text.status == 0, "\(text.errors)")
        #expect(text.output.hasPrefix("Already there: AGENCY_ADMIN Demo.Admin (Demo.Admin@example.org)"), "\(text.output)")
        #expect(text.output.hasSuffix("nothing changed.\n"))

        // The first password works, case-insensitively on the email; the second was never set.
        let admin = try await login(slug, "demo.admin@example.org", "demo admin password")
        #expect(admin.token != nil, "\(admin.error ?? "")")
        let other = try await login(slug, "demo.admin@example.org", "another password here")
        #expect(other.token == nil)
        #expect(other.error == "That username or password is not right.")

        // Without --if-absent, the same email is refused, naming the option.
        let twice = try await Storykeep.run(Array(create.dropLast()), input: "demo admin password\n")
        #expect(twice.status != 0)
        #expect(twice.errors.contains("--email: Someone in this agency already has this email."), "\(twice.errors)")
    }

    @Test func aYoungPersonByUsernameAndTheRulesOnThePassword() async throws {
        try TestDatabase.requireEnvironment()
        let (dir, slug) = try TenantCommandTests().tenantDirectory()
        #expect(try await Storykeep.run("tenant", "apply", dir).status == 0)
        let create = ["user", "create", "--tenant", slug, "--role", "YOUNG_PERSON", "--username", "sam.demo", "--password-stdin",
                      "--if-absent", "--json"]

        // The tenant's policy (at least 10 characters) and an empty standard input are refused.
        let short = try await Storykeep.run(create, input: "short\n")
        #expect(short.status != 0)
        #expect(short.errors.contains("--password-stdin: Your password needs at least 10 characters."), "\(short.errors)")
        let empty = try await Storykeep.run(create, input: "")
        #expect(empty.status != 0)
        #expect(empty.errors.contains("--password-stdin: no password on standard input"), "\(empty.errors)")

        let made = try await Storykeep.run(create, input: "sam's demo password")
        #expect(made.status == 0, "\(made.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(made.output.utf8)) as? [String: Any])
        #expect(object["created"] as? Bool == true)
        #expect(object["activationCode"] == nil)
        let sam = try await login(slug, "Sam.Demo", "sam's demo password")
        #expect(sam.token != nil, "\(sam.error ?? "")")

        // --if-absent finds the username, but not as someone of another role.
        let asCarer = try await Storykeep.run(
            ["user", "create", "--tenant", slug, "--role", "CARER", "--username", "sam.demo", "--email", "sam@example.org",
             "--if-absent"])
        #expect(asCarer.status != 0)
        #expect(asCarer.errors.contains("--username: Someone in this agency already has this username, as YOUNG_PERSON."), "\(asCarer.errors)")

        // Without a password, --if-absent issues a code the first time only.
        let coded = ["user", "create", "--tenant", slug, "--role", "CARER", "--email", "carer@example.org", "--if-absent", "--json"]
        let withCode = try #require(
            try JSONSerialization.jsonObject(with: Data(try await Storykeep.run(coded).output.utf8)) as? [String: Any])
        #expect(Set(withCode.keys) == ["personId", "activationCode", "created"])
        let noCode = try #require(
            try JSONSerialization.jsonObject(with: Data(try await Storykeep.run(coded).output.utf8)) as? [String: Any])
        #expect(Set(noCode.keys) == ["personId", "created"])
        #expect(noCode["personId"] as? String == withCode["personId"] as? String)
    }
}
