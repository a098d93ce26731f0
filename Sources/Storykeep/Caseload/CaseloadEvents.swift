public import Foundation
public import StorykeepCore

// What the caseload tells the other modules (see `DomainEvent`): ids and the relationship.

/// An agency admin assigned an adult to a young person.
public struct AssignmentStarted: DomainEvent {
    public static let name = "assignmentStarted"
    public var assignmentID: UUID
    public var youngPersonID: UUID
    public var adultID: UUID
    public var relationship: AssignmentRelationship
}

/// An agency admin ended an assignment: the adult no longer looks after the young person (and,
/// where sharing is on, no longer reads what the young person shared with them).
public struct AssignmentEnded: DomainEvent {
    public static let name = "assignmentEnded"
    public var assignmentID: UUID
    public var youngPersonID: UUID
    public var adultID: UUID
}
