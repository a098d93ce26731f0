public import Foundation
public import Postgres
import StorykeepCore
public import StorykeepJournals

/// How the app looks for its person: their name in it, avatar, colours, mood icons and the
/// backgrounds offered for entries.
public struct Profile: Sendable, Equatable {
    /// The name the app greets them by: their own choice, or their name in the agency's records.
    public var displayName: String
    /// A built-in avatar's name or an emoji.
    public var avatar: String?
    /// A picture of their own (one of their image files), shown instead of `avatar`.
    public var avatarMediaID: UUID?
    /// The app's theme, a name the apps know; nil for the agency's default.
    public var theme: String?
    /// The app's colours by role (`primary`, `background`, ...), as `#rrggbb` or `#rrggbbaa`.
    public var colours: [String: String]
    /// The set their mood icons are drawn from, a name the apps know; nil for the default.
    public var moodIconSet: String?
    /// Their mood icons, or the tenant's when they have chosen none.
    public var moodIcons: [MoodIcon]
    /// Colours and patterns offered as entries' backgrounds.
    public var entryBackgrounds: [String]
    /// The language they chose to read the agency's texts in; nil for their device's.
    public var language: String?
}

/// What `updateProfile` does with the person's language.
public enum ProfileLanguage: Sendable, Equatable {
    /// One of the tenant's languages (checked by the caller).
    case chosen(String)
    /// None: the request's Accept-Language chooses.
    case device
}

/// What `ProfileStore.updateProfile` changes: each field given replaces the current value, each
/// `nil` keeps it.
public struct ProfileChanges: Sendable, Equatable {
    public var displayName: String?
    public var avatar: String?
    public var avatarMediaID: UUID?
    public var theme: String?
    public var colours: [String: String]?
    public var moodIconSet: String?
    public var moodIcons: [MoodIcon]?
    public var entryBackgrounds: [String]?
    public var language: ProfileLanguage?

    public init(
        displayName: String? = nil, avatar: String? = nil, avatarMediaID: UUID? = nil, theme: String? = nil,
        colours: [String: String]? = nil, moodIconSet: String? = nil, moodIcons: [MoodIcon]? = nil,
        entryBackgrounds: [String]? = nil, language: ProfileLanguage? = nil
    ) {
        self.displayName = displayName
        self.avatar = avatar
        self.avatarMediaID = avatarMediaID
        self.theme = theme
        self.colours = colours
        self.moodIconSet = moodIconSet
        self.moodIcons = moodIcons
        self.entryBackgrounds = entryBackgrounds
        self.language = language
    }

    /// The avatar, theme and mood icon set as they will be written: trimmed, each checked against
    /// its limit (refused, naming the field, like every change of `updateProfile`).
    func trimmedChoices() throws -> (avatar: String?, theme: String?, moodIconSet: String?) {
        (
            try avatar.map { try ProfileText.trimmed($0, field: "avatar", .avatar) },
            try theme.map { try ProfileText.trimmed($0, field: "theme", .profileTheme) },
            try moodIconSet.map { try ProfileText.trimmed($0, field: "moodIconSet", .moodIconSet) }
        )
    }
}

/// A profile's names as they are kept: trimmed, and within their limits.
enum ProfileText {
    /// `text` without the whitespace around it; refused (`badInput` naming `field`) outside `limit`.
    static func trimmed(_ text: String, field: String, _ limit: TextLimit) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard limit.admits(trimmed) else { throw JournalError.badInput(field: field, message: "must have \(limit)") }
        return trimmed
    }
}

/// The person's profile (Migrations/0003_journals.sql `profiles`), in the transaction it is
/// given, for the person that transaction runs as. No row until they first change something.
public struct ProfileStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    /// The person's profile, with the tenant's `defaultMoodIcons` if they chose none: one statement.
    public func profile(defaultMoodIcons: [MoodIcon]) async throws -> Profile {
        let row = try await database.query(ProfileStatements.profile)[0]
        return Profile(
            displayName: try row.decode(String.self, at: 0), avatar: try row.decode(String?.self, at: 1),
            avatarMediaID: try row.decode(UUID?.self, at: 2), theme: try row.decode(String?.self, at: 6),
            colours: try row.decodeJSON([String: String].self, at: 3), moodIconSet: try row.decode(String?.self, at: 7),
            moodIcons: try row.decode(PostgresJSON<[MoodIcon]>?.self, at: 4)?.value ?? defaultMoodIcons,
            entryBackgrounds: try row.decodeJSON([String].self, at: 5), language: try row.decode(String?.self, at: 8))
    }

    /// The language the person chose (``Profile/language``): one statement.
    public func language() async throws -> String? {
        try await database.query(ProfileStatements.language).first?.decode(String?.self, at: 0)
    }

    /// Applies `changes` and returns the profile. Refused (`badInput`, naming the field) when a
    /// name is empty or too long, a colour is not `#rrggbb[aa]`, the mood icons are not 1 to 24
    /// single emoji with distinct labels, or the avatar file is not one of the person's images.
    public func updateProfile(_ changes: ProfileChanges, defaultMoodIcons: [MoodIcon]) async throws -> Profile {
        let displayName = try changes.displayName.map { try ProfileText.trimmed($0, field: "displayName", .profileDisplayName) }
        let (avatar, theme, moodIconSet) = try changes.trimmedChoices()
        try changes.colours.map(Self.checkColours)
        try changes.moodIcons.map(Self.checkMoodIcons)
        let backgrounds = try changes.entryBackgrounds.map { list in
            guard list.count <= 50 else {
                throw JournalError.badInput(field: "entryBackgrounds", message: "at most 50 backgrounds")
            }
            return try list.map { try ProfileText.trimmed($0, field: "entryBackgrounds", .background) }
        }
        if let media = changes.avatarMediaID {
            let isImage = try await database.query(ProfileStatements.isOwnImage, media)[0].decode(Bool.self, at: 0)
            guard isImage else {
                throw JournalError.badInput(field: "avatarMediaId", message: "no image of yours has the id \(media.lowercased)")
            }
        }
        try await database.execute(
            ProfileStatements.update,
            displayName, avatar, changes.avatarMediaID, changes.colours.map(PostgresJSON.init),
            changes.moodIcons.map(PostgresJSON.init), backgrounds.map(PostgresJSON.init), theme, moodIconSet)
        if let language = changes.language {
            let code: String? = if case .chosen(let code) = language { code } else { nil }
            try await database.execute(ProfileStatements.setLanguage, code)
        }
        return try await profile(defaultMoodIcons: defaultMoodIcons)
    }

    private static func checkColours(_ colours: [String: String]) throws {
        guard colours.count <= 20 else { throw JournalError.badInput(field: "colours", message: "at most 20 colours") }
        for (role, value) in colours {
            guard role.wholeMatch(of: /[a-zA-Z][a-zA-Z0-9]{0,29}/) != nil,
                value.wholeMatch(of: /#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?/) != nil
            else {
                throw JournalError.badInput(field: "colours", message: "\(role): a colour is written #rrggbb or #rrggbbaa")
            }
        }
    }

    private static func checkMoodIcons(_ icons: [MoodIcon]) throws {
        guard (1...24).contains(icons.count) else {
            throw JournalError.badInput(field: "moodIcons", message: "1 to 24 mood icons")
        }
        for icon in icons {
            // One emoji is one Character (a grapheme cluster, 👍🏽 included): a shape, not a length limit.
            guard icon.emoji.count == 1, !icon.emoji.allSatisfy(\.isWhitespace) else {
                throw JournalError.badInput(field: "moodIcons", message: "each icon is one emoji")
            }
            _ = try ProfileText.trimmed(icon.label, field: "moodIcons", .mood)
        }
        guard Set(icons.map { $0.label.lowercased() }).count == icons.count else {
            throw JournalError.badInput(field: "moodIcons", message: "each label once")
        }
    }
}
