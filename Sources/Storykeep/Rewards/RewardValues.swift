import Foundation
public import GraphQL
import StorykeepCore

// The rewards module's values as the schema reads them (Schema/rewards.graphql).

/// What the request's handlers noted each entry earned (``RequestNotes``): what
/// `Entry.rewardsEarned` shows on the mutation's result.
struct EarnedInRequest: Sendable {
    var byEntry: [UUID: RewardsEarned] = [:]

    /// Notes `earned` for `entryID`, beside what the request noted for it before.
    mutating func add(_ earned: RewardsEarned, for entryID: UUID) {
        byEntry[entryID] = (byEntry[entryID] ?? RewardsEarned()).adding(earned)
    }
}

/// The `Rewards` object of the person asking: its fields are resolvers of their own, each one
/// statement, run only when asked for.
struct RewardsOfViewer: Sendable {}

/// An unlockable of the catalogue, as the person asking has it (the type `Unlockable`).
struct CatalogueItem: Sendable {
    var unlockable: Unlockable
    /// Free, or bought by the person.
    var unlocked: Bool
}

extension RewardsEarned: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "stars": stars
        case "achievements": achievements
        default: nil
        }
    }
}

extension EarnedAchievement: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        Achievement.field(name, id: id, name: self.name, description: description, icon: icon, stars: stars, earnedAt: earnedAt)
    }
}

/// An achievement of the tenant's file still to earn.
extension Achievement: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        Self.field(name, id: id, name: self.name, description: description, icon: icon, stars: bonus, earnedAt: nil)
    }

    /// The field `field` of the schema's `Achievement`, which an achievement earned
    /// (``EarnedAchievement``, as it was when earned) and one still to earn (`earnedAt` nil) both are.
    static func field(
        _ field: String, id: String, name: String, description: String, icon: String, stars: Int, earnedAt: Date?
    ) -> (any Sendable)? {
        switch field {
        case "id": id
        case "name": name
        case "description": description
        case "icon": icon
        case "stars": stars
        case "earnedAt": earnedAt.map(DateTimeScalar.string)
        default: nil
        }
    }
}

extension StarChange: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "stars": stars
        case "cause": cause.graphQLName
        case "sourceId": sourceID
        case "entryId": entryID?.lowercased
        case "date": day
        case "at": DateTimeScalar.string(createdAt)
        default: nil
        }
    }
}

extension CatalogueItem: GraphQLFieldReadable {
    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": unlockable.id
        case "kind": unlockable.kind.graphQLName
        case "name": unlockable.name
        case "stars": unlockable.stars
        case "unlocked": unlocked
        default: nil
        }
    }
}

extension Unlockable.Kind {
    /// Its name in the API: `THEME`, `AVATAR`, `MOOD_ICONS`, `STICKER`.
    var graphQLName: String {
        switch self {
        case .theme: "THEME"
        case .avatar: "AVATAR"
        case .moodIcons: "MOOD_ICONS"
        case .sticker: "STICKER"
        }
    }
}
