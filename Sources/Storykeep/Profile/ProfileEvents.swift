public import Foundation
public import StorykeepCore

/// A person is about to change the profile choices another module may govern: published by
/// `updateProfile` in its transaction before anything is written, with the choices the change
/// makes (nil: left as it is). A handler that throws refuses the change, and nothing is written:
/// the rewards module refuses a theme, avatar or mood icon set that is an unlockable the person
/// has not unlocked, naming the field (`input.theme`).
///
/// The profile knows no module that checks it, and accepts any name the apps know; this event is
/// the seam through which those that care say no.
public struct ProfileChanging: DomainEvent {
    public static let name = "profileChanging"
    public var personID: UUID
    /// A built-in avatar's name or an emoji.
    public var avatar: String?
    public var theme: String?
    public var moodIconSet: String?

    public init(personID: UUID, avatar: String?, theme: String?, moodIconSet: String?) {
        self.personID = personID
        self.avatar = avatar
        self.theme = theme
        self.moodIconSet = moodIconSet
    }
}
