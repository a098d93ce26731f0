import Foundation
import GraphQL
import Postgres
import Storykeep
import StorykeepServer
import Synchronization
import Testing

/// A module of the test's own that handles the caseload's events: it keeps each event with
/// whether the handler's transaction, the change's, sees the assignment as it is after it.
private struct CaseloadListener: StorykeepModule {
    final class Heard: Sendable {
        let events = Mutex<[String]>([])
    }

    let heard = Heard()

    var name: String { "caseload-listener" }
    var switchedBy: TenantModule? { nil }
    var sdl: [String] { [] }

    func register(_ module: inout ModuleRegistry) {
        let heard = heard
        module.on(AssignmentStarted.self) { event, context in
            let current = try await context.transaction.query(
                "select until is null from assignments where tenant_id = current_tenant_id() and id = $1", event.assignmentID
            ).first?.decode(Bool.self, at: 0)
            heard.events.withLock {
                $0.append("started \(event.relationship.rawValue) \(event.youngPersonID) \(event.adultID) current: \(current.map(String.init) ?? "unseen")")
            }
        }
        module.on(AssignmentEnded.self) { event, context in
            let current = try await context.transaction.query(
                "select until is null from assignments where tenant_id = current_tenant_id() and id = $1", event.assignmentID
            ).first?.decode(Bool.self, at: 0)
            heard.events.withLock {
                $0.append("ended \(event.youngPersonID) \(event.adultID) current: \(current.map(String.init) ?? "unseen")")
            }
        }
    }
}

/// The engine refused to run the operation at all.
private struct NotRun: Error {}

@Suite("Caseload: events")
struct CaseloadEventTests {
    @Test func assigningAndEndingArePublishedInTheirTransaction() async throws {
        try await withAccounts { h in
            let admin = try await h.adult(.agencyAdmin, "Ada Admin")
            let sam = try await h.young("sam"), wendy = try await h.adult(.socialWorker, "Wendy Walker")
            let listener = CaseloadListener()
            let engine = TenantGraphQL(
                schemas: TenantSchemas(
                    directory: URL(fileURLWithPath: repositoryRoot + "/Schema"), modules: StorykeepModules.all + [listener]),
                services: h.engine.services)
            let tenant = try #require(try await TenantStore(pool: h.app).all().first { $0.id == h.tenant.id })
            func run(_ query: String, _ variables: GraphQLObject) async throws -> GraphQLResponse {
                let request = GraphQLRequest(query: query, variables: variables)
                guard case .response(let response) = await engine.execute(
                    request, tenant: tenant, credential: .bearer(try #require(SessionToken(presented: admin.token))),
                    links: TenantLinks(root: "/"))
                else { throw NotRun() }
                return response
            }
            // A refused assignment publishes nothing (a social worker is no carer).
            let refused = try await run(CaseloadHTTP.assignAdult, ["y": sam.idValue, "a": wendy.idValue, "r": .string("CARER")])
            #expect(refused.errors.map { $0.extensions?["code"] } == [.string("BAD_USER_INPUT")])
            let assigned = try await run(CaseloadHTTP.assignAdult, ["y": sam.idValue, "a": wendy.idValue, "r": .string("SOCIAL_WORKER")])
            #expect(assigned.errors.isEmpty, "\(assigned.errors)")
            let id = try #require(assigned.data?["assignAdult"]?["id"])
            let ended = try await run(CaseloadHTTP.endAssignment, ["id": id])
            #expect(ended.errors.isEmpty, "\(ended.errors)")
            #expect(listener.heard.events.withLock { $0 } == [
                "started SOCIAL_WORKER \(sam.id) \(wendy.id) current: true",
                "ended \(sam.id) \(wendy.id) current: false",
            ])
        }
    }
}
