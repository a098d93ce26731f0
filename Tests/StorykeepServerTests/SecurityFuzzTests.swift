import Foundation
import GraphQL
import HummingbirdTesting
import Storykeep
import StorykeepSeed
import StorykeepTestSupport
import Testing

/// The fuzz pass of issue 16, over real HTTP against the real server and database: extreme
/// numbers, NULs, lone surrogates, bytes that are not UTF-8, huge strings and malformed headers
/// sent to every argument of every root query and mutation (generated from the tenant's schema by
/// introspection), and to the media, GraphQL and upload endpoints. What must hold: no 5xx, no
/// crash, every refusal a 4xx or a GraphQL error with `extensions.code` (never
/// INTERNAL_SERVER_ERROR); `/health/live` answers after every batch, and a real login works at
/// the end. Failures are printed as a table of target × case.
///
/// Deterministic: the sample comes from a seed (`STORYKEEP_FUZZ_SEED`, 16 by default), printed
/// with the table, so that a failure can be sent again.
@Suite struct SecurityFuzzTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["STORYKEEP_FUZZ_SEED"].flatMap { UInt64($0) } ?? 16

    /// Runs `body` in a world of its own on the live server: the journal's test tenant (tags,
    /// archive, moods, prompts) with the social space and messaging on, with uploads up to 1 MiB and a login back-off of at most one
    /// second (which the world skips by moving the server's clock). Then a new person logs in
    /// with a password, and every failure found is printed and recorded.
    static func withFuzzWorld(_ name: String, _ body: @escaping @Sendable (FuzzWorld) async throws -> Void) async throws {
        try await withAccounts(setup: .live, tweak: { index, file in
            JournalHTTP.tenant(index, &file)
            file.modules += [.social, .messaging]
            file.uploads = UploadPolicy(maxMegabytes: 1)
            file.lockout = LockoutPolicy(freeAttempts: 2, maxBackoffSeconds: 1)
            // Thousands of bad inputs from one address, failed logins among them: no rate limit stops the pass.
            file.rateLimits = RateLimitPolicy(
                failedLoginsPerMinute: 10_000, mutationsPerMinutePerPerson: 100_000, mutationsPerMinutePerAddress: 1_000_000,
                uploadsPerMinute: 100_000, tokenRequestsPerMinute: 100_000)
        }) { harness in
            let world = try await FuzzWorld(harness)
            do {
                try await body(world)
            } catch {
                print("\(name) (seed \(seed)) stopped by \(error):\n\(world.findings.table)")
                throw error
            }
            try await world.expectAlive(after: name)
            let fresh = try await world.newPerson(.agencyAdmin, name: "fuzz-final")
            #expect(try await world.login(fresh.loginName, fresh.password) != nil, "a real login fails after the fuzz pass")
            print("\(name) (seed \(seed)):\n\(world.findings.table)")
            let failures = world.findings.all.count
            #expect(failures == 0, "\(name): \(failures) failures in \(world.findings.requests) requests, in the table above")
        }
    }

    /// Every argument of every root field, and every input field and list element within it, as
    /// an anonymous caller, a young person and an agency admin. A call with valid values first
    /// tells which roles the field lets through (those not refused as UNAUTHENTICATED or
    /// FORBIDDEN) and gives a cursor, if the field pages. The first role let through gets every
    /// case of the value's type, alternately as a variable and inline (a cursor argument also
    /// gets cursors forged from the real one); the other roles let through get four seeded
    /// cases, the roles refused two (the engine coerces values before any resolver refuses).
    @Test func everyArgumentOfEveryRootField() async throws {
        try await Self.withFuzzWorld("arguments") { world in
            let schema = world.schema
            let targets = FuzzTarget.all(in: schema)
            for (operation, field) in schema.rootFields {
                for role in FuzzRole.allCases { try await world.heal(role) }
                try await world.refreshFixtures()
                var reaching: [FuzzRole] = []
                var cursor: String?
                for role in FuzzRole.allCases {
                    try await world.heal(role)
                    let body = try await FuzzRequest.valid(operation, field, schema: schema, plausible: world.plausible(as: role))
                    let response = (await world.send(body, as: role, target: field.name, caseName: "valid values", how: role.rawValue))
                        .flatMap { try? $0.json }
                    if response?.errorCode != "UNAUTHENTICATED" && response?.errorCode != "FORBIDDEN" { reaching.append(role) }
                    cursor = cursor ?? response?.firstCursor
                }
                for (index, target) in targets.enumerated() where target.operation == operation && target.field.name == field.name {
                    // A stream of its own for each target, so that its sample does not depend on the others'.
                    var random = SeedRandom(seed: Self.seed, stream: [UInt64(index)])
                    for role in FuzzRole.allCases { try await world.heal(role) }
                    var cases = FuzzCatalogue.cases(for: target.type, in: schema)
                    if let cursor, target.path.isEmpty, ["after", "before"].contains(target.argument.name) {
                        cases += FuzzCatalogue.forgedCursors(from: cursor)
                    }
                    for role in FuzzRole.allCases {
                        let offset = Int.random(in: 0...1, using: &random)
                        var sends = cases.enumerated().map { ($0.element, $0.element.onlyAsVariable || ($0.offset + offset) % 2 == 0) }
                        if role != reaching.first { sends = Array(sends.shuffled(using: &random).prefix(reaching.contains(role) ? 4 : 2)) }
                        for (fuzz, asVariables) in sends {
                            let body = try await FuzzRequest.body(
                                target, value: fuzz.value, asVariables: asVariables, schema: schema, plausible: world.plausible(as: role))
                            await world.send(
                                body, as: role, target: target.label, caseName: fuzz.name,
                                how: "\(role.rawValue), \(asVariables ? "variable" : "inline")")
                        }
                    }
                }
                try await world.expectAlive(after: field.name)
            }
        }
    }
}
