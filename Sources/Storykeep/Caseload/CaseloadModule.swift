import Foundation
import GraphQL
public import StorykeepCore
import StorykeepNotifications

/// The caseload in the schema (Schema/caseload.graphql): agency admins assign adults to young
/// people and end assignments (``AssignmentStarted``, ``AssignmentEnded``); adults list their
/// young people, young people their team. Always on.
///
/// Assigning tells the young person (a notification of the kind ``assignmentStartedKind``,
/// about the adult). The people each side sees are read under the widened policies of
/// Migrations/0010_caseload.sql, through types that show a name and an avatar only.
public struct CaseloadModule: StorykeepModule {
    public init() {}

    public var name: String { "caseload" }
    public var switchedBy: TenantModule? { nil }

    /// The notification a young person gets when an adult is assigned to them; its subject is
    /// the adult (`person`).
    public static let assignmentStartedKind = "assignmentStarted"

    public func register(_ module: inout ModuleRegistry) {
        let admins = FieldAccess.roles([.agencyAdmin])

        module.query("assignments", access: admins) { arguments, context in
            let id = try arguments.id("youngPersonId")
            return try await context.transaction { tx in try await AssignmentAdmin.history(of: id, in: tx) }
        }
        module.query("myYoungPeople", access: .roles([.socialWorker, .carer])) { _, context in
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in try await Caseload(tx).currentYoungPeople(of: viewer.personID) }
        }
        module.query("myTeam", access: .roles([.youngPerson])) { _, context in
            let viewer = try context.requireViewer()
            return try await context.transaction { tx in try await Caseload(tx).currentAdults(of: viewer.personID) }
        }

        module.mutation("assignAdult", access: admins) { arguments, context in
            let youngPersonID = try Self.personID(arguments, "youngPersonId")
            let adultID = try Self.personID(arguments, "adultId")
            guard let relationship = arguments["relationship"]?.stringValue.flatMap(AssignmentRelationship.init(rawValue:)) else {
                throw GraphQLError.badUserInput(field: "relationship", "Unknown relationship.")
            }
            return try await context.transaction { tx in
                let assignment = try await AssignmentAdmin.assign(
                    youngPersonID: youngPersonID, adultID: adultID, relationship: relationship, in: tx)
                try await context.publish(
                    AssignmentStarted(
                        assignmentID: assignment.id, youngPersonID: youngPersonID, adultID: adultID, relationship: relationship),
                    in: tx)
                try await Notifications.notify(
                    [youngPersonID], kind: Self.assignmentStartedKind,
                    title: "\(assignment.adult.displayName) is now \(relationship.asTheirs)",
                    subject: NotificationSubject(kind: "person", id: adultID), in: tx)
                return assignment
            }
        }
        module.mutation("endAssignment", access: admins) { arguments, context in
            let id = try arguments.id("assignmentId")
            return try await context.transaction { tx in
                let assignment = try await AssignmentAdmin.end(assignmentID: id, in: tx)
                try await context.publish(
                    AssignmentEnded(assignmentID: id, youngPersonID: assignment.youngPerson.id, adultID: assignment.adult.id), in: tx)
                return assignment
            }
        }
    }

    /// The argument `name` as a person's id: BAD_USER_INPUT naming it when it is no UUID, as for
    /// one that names nobody.
    private static func personID(_ arguments: GraphQLObject, _ name: String) throws -> UUID {
        guard let id = arguments[name]?.stringValue.flatMap(UUID.init(uuidString:)) else {
            throw GraphQLError.badUserInput(field: name, "There is no such person in this agency.")
        }
        return id
    }
}
