/// How long a text people give may be, in characters counted as Unicode code points: what
/// PostgreSQL's `length()` counts in a UTF-8 database. Every length limit of the domain is one
/// of these, and each has the same numbers as the CHECK constraint of the column that keeps such
/// text (`constraint`), so text the server admits, the database admits too.
///
/// Code points, not the characters a screen shows (Swift's `Character`): `"e\u{301}"`, an e with
/// a combining accent, looks like one character and is two code points; a flag emoji is two.
/// The SDL says "characters (Unicode code points)" where it gives a limit.
public struct TextLimit: Sendable, Equatable, CustomStringConvertible {
    /// The lengths admitted.
    public let range: ClosedRange<Int>
    /// The CHECK constraint holding the column that keeps such text to the same limit.
    public let constraint: String

    init(_ range: ClosedRange<Int>, constraint: String) {
        self.range = range
        self.constraint = constraint
    }

    /// The length of `text` as every limit counts it: its Unicode code points.
    public static func length(of text: some StringProtocol) -> Int {
        text.unicodeScalars.count
    }

    /// Whether `text`'s length is within the limit.
    public func admits(_ text: some StringProtocol) -> Bool {
        range.contains(Self.length(of: text))
    }

    /// The limit as people read it: "1 to 200 characters", "at most 20000 characters".
    public var description: String {
        range.lowerBound == 0 ? "at most \(range.upperBound) characters" : "\(range.lowerBound) to \(range.upperBound) characters"
    }
}

extension TextLimit {
    /// A tenant's slug (Migrations/0001_tenancy.sql), from its file.
    public static let tenantSlug = TextLimit(1...63, constraint: "tenants_slug_format")
    /// A person's name (Migrations/0002_accounts.sql).
    public static let personDisplayName = TextLimit(1...200, constraint: "people_display_name_length")
    /// A person's case number in the agency's case management system.
    public static let externalRef = TextLimit(1...200, constraint: "people_external_ref_length")
    /// An email address.
    public static let email = TextLimit(1...254, constraint: "people_email_format")
    /// What is typed as a username or email to log in, as the lockout counts it.
    public static let loginName = TextLimit(1...254, constraint: "login_failures_name_length")
    /// An entry's text, and a check-in's note (Migrations/0003_journals.sql).
    public static let entryText = TextLimit(0...20_000, constraint: "entries_body_length")
    /// A mood: an entry's, and each mood icon's label (the tenant's and a profile's), which
    /// becomes an entry's mood at a check-in.
    public static let mood = TextLimit(1...50, constraint: "entries_mood_length")
    /// An entry's background, and each of the backgrounds a profile offers.
    public static let background = TextLimit(1...100, constraint: "entries_background_length")
    /// The suggestion an entry answers: a prompt of the tenant file.
    public static let suggestion = TextLimit(1...500, constraint: "entries_suggestion_length")
    /// A tag's name, and each of the tenant's suggested tags.
    public static let tagName = TextLimit(1...99, constraint: "tags_name_length")
    /// The name a profile greets its person by.
    public static let profileDisplayName = TextLimit(1...100, constraint: "profiles_display_name_length")
    /// A profile's built-in avatar name or emoji.
    public static let avatar = TextLimit(1...100, constraint: "profiles_avatar_length")
    /// A profile's theme: a name the apps know (Migrations/0015_rewards.sql).
    public static let profileTheme = TextLimit(1...100, constraint: "profiles_theme_length")
    /// A profile's set of mood icons: a name the apps know.
    public static let moodIconSet = TextLimit(1...100, constraint: "profiles_mood_icon_set_length")
    /// An achievement's name, from the tenant file, as kept when earned.
    public static let achievementName = TextLimit(1...100, constraint: "reward_achievements_name_length")
    /// An achievement's description.
    public static let achievementDescription = TextLimit(1...500, constraint: "reward_achievements_description_length")
    /// An achievement's icon: one emoji, which may take several code points (👩🏽‍🎨 takes four).
    public static let achievementIcon = TextLimit(1...32, constraint: "reward_achievements_icon_length")
    /// A notification's title (Migrations/0011_notifications.sql), which the notifying module
    /// builds: a longer one is cut, not refused.
    public static let notificationTitle = TextLimit(1...200, constraint: "notifications_title_length")
    /// Why a member of staff asks for someone's password to be reset.
    public static let passwordResetReason = TextLimit(1...500, constraint: "password_reset_requests_reason_length")
    /// What a member of staff notes when refusing a password reset.
    public static let passwordResetNote = TextLimit(1...500, constraint: "password_reset_events_note_length")
    /// What a young person says with an entry they share (Migrations/0012_sharing.sql).
    public static let shareMessage = TextLimit(1...500, constraint: "shares_message_length")
    /// An adult's short reply to an entry shared with them.
    public static let shareReply = TextLimit(1...500, constraint: "shares_reply_length")
    /// A prompt an adult sends a young person (Migrations/0013_prompts.sql).
    public static let adultPrompt = TextLimit(1...500, constraint: "adult_prompts_text_length")
    /// What a young person writes when raising a safety alert (Migrations/0014_safety.sql): a
    /// longer message is cut, never refused.
    public static let safetyAlertMessage = TextLimit(1...1000, constraint: "safety_alerts_message_length")
    /// What a member of staff notes when acknowledging or resolving a safety alert.
    public static let safetyAlertNote = TextLimit(1...2000, constraint: "safety_alert_notes_note_length")
    /// What an agency calls a case-management client (Migrations/0017_export.sql).
    public static let cmsClientName = TextLimit(1...200, constraint: "cms_clients_name_length")
    /// An action of the audit trail, `<thing>.<verb>` (Migrations/0019_audit.sql): the code's own, never a person's.
    public static let auditAction = TextLimit(1...60, constraint: "audit_events_action")
    /// The HTTP request's id an audit event keeps (Migrations/0029_audit_request_id.sql): what
    /// the server's RequestIDMiddleware admits as `X-Request-Id`, ASCII only.
    public static let requestID = TextLimit(1...128, constraint: "audit_events_request_id")

    /// The name a person goes by in the social module (Migrations/0032_social.sql).
    public static let socialDisplayName = TextLimit(1...60, constraint: "social_profiles_display_name_length")
    /// A social profile's bio.
    public static let socialBio = TextLimit(1...300, constraint: "social_profiles_bio_length")
    /// A post's text (Migrations/0033_social_posts.sql).
    public static let socialPostText = TextLimit(1...2000, constraint: "social_posts_text_length")
    /// A post's link: a plain URL.
    public static let socialPostLink = TextLimit(1...2000, constraint: "social_posts_link_length")
    /// A comment on a post.
    public static let socialComment = TextLimit(1...1000, constraint: "social_comments_text_length")
    /// An interest group's name.
    public static let socialGroupName = TextLimit(1...80, constraint: "social_groups_name_length")
    /// What a report of a post or comment says beside its reason (Migrations/0034_social_moderation.sql).
    public static let socialReportText = TextLimit(1...500, constraint: "social_reports_text_length")
    /// Why a moderator removed a post, which its author reads.
    public static let socialRemovalReason = TextLimit(1...500, constraint: "social_posts_removal_reason_length")
    /// Why a moderator removed a comment.
    public static let socialCommentRemovalReason = TextLimit(1...500, constraint: "social_comments_removal_reason_length")
    /// Why a moderator suspended someone, which they read.
    public static let socialSuspensionReason = TextLimit(1...500, constraint: "social_suspensions_reason_length")
    /// An interest group's description.
    public static let socialGroupDescription = TextLimit(1...500, constraint: "social_groups_description_length")

    /// A private message's text (Migrations/0042_messaging.sql).
    public static let messageText = TextLimit(1...2000, constraint: "messaging_messages_text_length")
    /// What a report of a message says beside its reason.
    public static let messageReportText = TextLimit(1...500, constraint: "messaging_reports_text_length")
    /// Why a moderator removed a message, which its sender reads.
    public static let messageRemovalReason = TextLimit(1...500, constraint: "messaging_messages_removal_reason_length")

    /// Every limit, for the test that holds them to the database's constraints.
    public static let all: [TextLimit] = [
        tenantSlug, personDisplayName, externalRef, email, loginName, entryText, mood, background, suggestion, tagName,
        profileDisplayName, avatar, profileTheme, moodIconSet, passwordResetReason, passwordResetNote, notificationTitle,
        shareMessage, shareReply, achievementName, achievementDescription, achievementIcon,
        adultPrompt, safetyAlertMessage, safetyAlertNote, cmsClientName, auditAction, requestID,
        socialDisplayName, socialBio, socialPostText, socialPostLink, socialComment, socialGroupName, socialGroupDescription,
        socialReportText, socialRemovalReason, socialCommentRemovalReason, socialSuspensionReason,
        messageText, messageReportText, messageRemovalReason,
    ]
}
