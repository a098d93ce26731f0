import GraphQL
import StorykeepCore
import StorykeepProfile

/// The profile choices stars unlock: a young person's new avatar, theme or mood icon set that
/// names an unlockable of the same kind in the tenant's catalogue must be free or theirs.
/// Anything else (an emoji avatar, a name the catalogue does not sell) is not the rewards
/// module's to refuse, and adults, who hold no stars, are not held to it.
enum ProfileChoices {
    /// Refuses `event`'s change (BAD_USER_INPUT naming the field, e.g. `input.theme`) when a
    /// choice is locked: one statement, only when a choice is for sale.
    static func check(_ event: ProfileChanging, context: EventContext) async throws {
        guard context.viewer?.role == .youngPerson else { return }
        let rewards = context.tenant.file.rewards
        let choices: [(field: String, kind: Unlockable.Kind, name: String?)] = [
            ("input.avatar", .avatar, event.avatar), ("input.theme", .theme, event.theme),
            ("input.moodIconSet", .moodIcons, event.moodIconSet),
        ]
        let forSale = choices.compactMap { choice -> (field: String, unlockable: Unlockable)? in
            guard let unlockable = choice.name.flatMap(rewards.unlockable), unlockable.kind == choice.kind, !unlockable.isFree
            else { return nil }
            return (choice.field, unlockable)
        }
        guard !forSale.isEmpty else { return }
        let unlocked = try await RewardStore(context.transaction).unlockedIDs()
        if let locked = forSale.first(where: { !unlocked.contains($0.unlockable.id) }) {
            throw GraphQLError.badUserInput(
                field: locked.field,
                "\(locked.unlockable.name) is locked: unlock it for \(locked.unlockable.stars) stars first.",
                ["price": .int(locked.unlockable.stars)])
        }
    }
}
