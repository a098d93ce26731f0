import Foundation
import GraphQL
public import StorykeepCore
import StorykeepJournals

/// The profile in the schema (Schema/profile.graphql): `me { profile }` and `updateProfile`.
/// Always on. A person's profile is theirs alone: on anyone else's `Person` it is null.
/// `updateProfile` publishes ``ProfileChanging`` before it writes a new avatar, theme or mood
/// icon set, so that another module may refuse it.
public struct ProfileModule: StorykeepModule {
    public init() {}

    public var name: String { "profile" }
    public var switchedBy: TenantModule? { nil }

    public func register(_ module: inout ModuleRegistry) {
        module.ownPersonField("Person.profile") { _, context, _ in
            let profile = try await context.transaction { tx in
                try await ProfileStore(tx).profile(defaultMoodIcons: context.tenant.file.moodIcons)
            }
            return try await Self.value(profile, context: context)
        }
        module.mutation("updateProfile", access: .authenticated) { arguments, context in
            let input = arguments["input"]?.objectValue ?? [:]
            let changes = ProfileChanges(
                displayName: input["displayName"]?.stringValue, avatar: input["avatar"]?.stringValue,
                avatarMediaID: try input["avatarMediaId"]?.stringValue.map { text in
                    guard let id = UUID(uuidString: text) else {
                        throw GraphQLError.badUserInput(field: "input.avatarMediaId", "input.avatarMediaId: \(text) is not an id.")
                    }
                    return id
                },
                theme: input["theme"]?.stringValue,
                colours: input["colours"]?.listValue.map { list in
                    Dictionary(
                        list.map { ($0["role"]?.stringValue ?? "", $0["value"]?.stringValue ?? "") },
                        uniquingKeysWith: { _, last in last })
                },
                moodIconSet: input["moodIconSet"]?.stringValue,
                moodIcons: input["moodIcons"]?.listValue?.map {
                    MoodIcon(emoji: $0["emoji"]?.stringValue ?? "", label: $0["label"]?.stringValue ?? "")
                },
                entryBackgrounds: input["entryBackgrounds"]?.listValue?.map { $0.stringValue ?? "" },
                language: try Self.language(input["language"], of: context.tenant.file))
            let profile = try await context.transaction { tx in
                try await JournalError.renamingFields({ "input.\($0)" }) {
                    // Other modules may refuse the choices (rewards: one still locked) before anything is written.
                    let (avatar, theme, moodIconSet) = try changes.trimmedChoices()
                    if avatar != nil || theme != nil || moodIconSet != nil {
                        try await context.publish(
                            ProfileChanging(
                                personID: try context.requireViewer().personID, avatar: avatar, theme: theme, moodIconSet: moodIconSet),
                            in: tx)
                    }
                    return try await ProfileStore(tx).updateProfile(changes, defaultMoodIcons: context.tenant.file.moodIcons)
                }
            }
            return try await Self.value(profile, context: context)
        }
    }

    /// `input.language`, checked: one of the tenant's `languages`, or `""` for none (the
    /// request's Accept-Language then chooses); nil to keep the current one.
    static func language(_ value: GraphQLValue?, of file: TenantFile) throws -> ProfileLanguage? {
        guard let code = value?.stringValue else { return nil }
        if code.isEmpty { return .device }
        guard file.languages.contains(code) else {
            throw GraphQLError.badUserInput(
                field: "input.language",
                "input.language: \"\(code)\" is not one of the agency's languages (\(file.languages.joined(separator: ", "))).")
        }
        return .chosen(code)
    }

    /// The `Profile` object, with its avatar picture's description (one statement more when the
    /// person has one).
    static func value(_ profile: Profile, context: ResolverContext) async throws -> [String: any Sendable] {
        let language = try await context.language()
        var avatar: MediaInfo?
        if let id = profile.avatarMediaID {
            avatar = try await context.transaction { tx in try await MediaStore(tx).media(ids: [id]) }.first
        }
        return [
            "displayName": profile.displayName,
            "avatar": profile.avatar,
            "avatarMedia": avatar,
            "theme": profile.theme,
            "moodIconSet": profile.moodIconSet,
            "colours": GraphQLValue.list(
                profile.colours.sorted { $0.key < $1.key }.map { .object(["role": .string($0.key), "value": .string($0.value)]) }),
            "moodIcons": profile.moodIcons.map { $0.graphQLValue(in: language) },
            "language": profile.language,
            "entryBackgrounds": profile.entryBackgrounds,
        ]
    }
}
