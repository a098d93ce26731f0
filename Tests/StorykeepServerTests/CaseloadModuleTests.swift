import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepServer
import StorykeepTestSupport
import Testing

// The caseload as other modules meet it: its events, and `CaseloadYoungPerson`, to which they add
// fields (the sharing module its `unreadShares`). Each test composes the server's modules with
// one of its own and runs requests on that engine directly.

/// A module of the test's own that handles the caseload's events: it keeps each event with
/// whether the handler's transaction, the change's, sees the assignment current.
private struct CaseloadListener: ListenerModule {
    let heard = HeardEvents()

    var name: String { "caseload-listener" }

    func register(_ module: inout ModuleRegistry) {
        keep(AssignmentStarted.self, in: &module) { event, context in
            let current = try await Self.current(event.assignmentID, context)
            return "started \(event.relationship.rawValue) \(event.youngPersonID) \(event.adultID) current: \(current)"
        }
        keep(AssignmentEnded.self, in: &module) { event, context in
            let current = try await Self.current(event.assignmentID, context)
            return "ended \(event.youngPersonID) \(event.adultID) current: \(current)"
        }
    }

    /// Whether the assignment `id` is current, as the handler's transaction sees it.
    static func current(_ id: UUID, _ context: EventContext) async throws -> String {
        try await context.transaction.query(
            "select until is null from assignments where tenant_id = current_tenant_id() and id = $1", id
        ).first.map { String(try $0.decode(Bool.self, at: 0)) } ?? "unseen"
    }
}

/// A module of the test's own that adds a field to `CaseloadYoungPerson` (in an SDL file of its
/// own), read from the caseload's value, as the sharing module adds `unreadShares`.
private struct CaseloadExtender: StorykeepModule {
    var name: String { "caseload-extender" }
    var switchedBy: TenantModule? { nil }

    static let sdl = """
        extend type CaseloadYoungPerson {
          "The assignment's id, read from the caseload's value."
          assignmentSeen: ID!
        }
        """

    func register(_ module: inout ModuleRegistry) {
        module.field(
            "CaseloadYoungPerson.assignmentSeen",
            .sync { source, _, _, _ in (source as? CaseloadYoungPerson)?.assignmentID.uuidString.lowercased() })
    }
}

/// The engine refused to run the operation at all.
private struct NotRun: Error {}

@Suite("Caseload: events, and fields other modules add")
struct CaseloadModuleTests {
    /// Runs `query` as the person with `token` on an engine of the server's modules and `extra`,
    /// whose SDL is in `schema`.
    static func run(
        _ h: AccountsHarness, modules extra: [any StorykeepModule], schema: URL = repositoryRoot.appendingPathComponent("Schema"),
        _ query: String, _ variables: GraphQLObject = [:], token: String
    ) async throws -> GraphQLResponse {
        let engine = TenantGraphQL(
            schemas: TenantSchemas(directory: schema, modules: StorykeepModules.all + extra), services: h.engine.services)
        let tenant = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
        guard case .response(let response) = await engine.execute(
            GraphQLRequest(query: query, variables: variables), tenant: tenant,
            credential: .bearer(try #require(SessionToken(presented: token))), links: TenantLinks(root: "/"))
        else { throw NotRun() }
        return response
    }

    @Test func assigningAndEndingArePublishedInTheirTransaction() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            let listener = CaseloadListener()
            // A refused assignment publishes nothing (a social worker is no carer).
            let refused = try await Self.run(
                h, modules: [listener], CaseloadHTTP.assignAdult, ["y": sam.idValue, "a": wendy.idValue, "r": .string("CARER")],
                token: admin.token)
            #expect(refused.errors.map { $0.extensions?["code"] } == [.string("BAD_USER_INPUT")])
            let assigned = try await Self.run(
                h, modules: [listener], CaseloadHTTP.assignAdult, ["y": sam.idValue, "a": wendy.idValue, "r": .string("SOCIAL_WORKER")],
                token: admin.token)
            #expect(assigned.errors.isEmpty, "\(assigned.errors)")
            let id = try #require(assigned.data?["assignAdult"]?["id"])
            let ended = try await Self.run(h, modules: [listener], CaseloadHTTP.endAssignment, ["id": id], token: admin.token)
            #expect(ended.errors.isEmpty, "\(ended.errors)")
            #expect(listener.heard.all == [
                "started SOCIAL_WORKER \(sam.id) \(wendy.id) current: true",
                "ended \(sam.id) \(wendy.id) current: false",
            ])
        }
    }

    @Test func anotherModuleAddsAFieldToTheAdultsYoungPeople() async throws {
        try await withAccounts { h in
            let (admin, sam, wendy) = try await (h.cast(.ada), h.cast(.sam), h.cast(.wendy))
            let assignment = try await h.assign(sam, wendy, .socialWorker, admin: admin)
            let schema = FileManager.default.temporaryDirectory.appendingPathComponent("caseload-schema-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("Schema"), to: schema)
            defer { try? FileManager.default.removeItem(at: schema) }
            try CaseloadExtender.sdl.write(to: schema.appendingPathComponent("caseload-extender.graphql"), atomically: true, encoding: .utf8)
            let response = try await Self.run(
                h, modules: [CaseloadExtender()], schema: schema, "{ myYoungPeople { youngPerson { displayName } assignmentSeen } }",
                token: wendy.token)
            #expect(response.errors.isEmpty, "\(response.errors)")
            #expect(response.data?["myYoungPeople"] == .list([
                .object(["youngPerson": .object(["displayName": .string("Sam")]), "assignmentSeen": assignment["id"]!]),
            ]))
        }
    }
}
