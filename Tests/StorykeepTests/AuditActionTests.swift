import Foundation
import StorykeepCore
import StorykeepTestSupport
import Testing

/// The audit trail's actions are one list (`AuditAction`), and the schema's description of
/// `AuditEvent.action` names each of them and no other.
@Suite struct AuditActionTests {
    @Test func theSchemaDescribesEveryActionAndNoOther() throws {
        let sdl = try String(contentsOf: repositoryRoot.appendingPathComponent("Schema/audit.graphql"), encoding: .utf8)
        let end = try #require(sdl.range(of: "\"\"\"\n  action: String!"), "the description of AuditEvent.action")
        let start = try #require(sdl[..<end.lowerBound].range(of: "\"\"\"", options: .backwards))
        let description = sdl[start.upperBound..<end.lowerBound]
        let named = Set(description.matches(of: /`([a-z][a-zA-Z]*\.[a-z][a-zA-Z]*)`/).map { String($0.1) })
        #expect(named == Set(AuditAction.allCases.map(\.rawValue)))
    }

    @Test func everyActionIsAThingAndAVerbAsTheTableAdmits() {
        // audit_events_action in Migrations/0019_audit.sql.
        for action in AuditAction.allCases {
            #expect(action.rawValue.wholeMatch(of: /[a-z][a-zA-Z]*(\.[a-z][a-zA-Z]*)+/) != nil && action.rawValue.count <= 60, "\(action)")
        }
    }
}
